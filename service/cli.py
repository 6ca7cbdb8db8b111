"""The `tablelog` command: serve, migrate, export / import games, clubs and keys, resource imports.

`main` is the command line's composition root: it builds the games served (`Settings.rulesets`) once and
builds the parser for them; each command finds them in `args.rulesets`."""

from __future__ import annotations

import argparse
import atexit
import errno
import os
import shutil
import socket
import sys
import tempfile
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import msgspec
import uvicorn
from uvicorn.supervisors import Multiprocess

from domain.registry import Rulesets, UnknownRuleset
from service.i18n import LANGUAGES
from service.logs import get_logger
from service.settings import Settings
from service.store import open_store
from service.store.access import Scope
from service.store.base import Recorder, Store, StoreError
from service.store.roles import migrate_database


def _settings(args: argparse.Namespace) -> Settings:
    settings = Settings.from_env()
    overrides = {
        name: getattr(args, name)
        for name in ("database_url", "host", "port", "health_port", "workers", "log_format")
        if getattr(args, name, None) is not None
    }
    return msgspec.structs.replace(settings, **overrides)


def _store(settings: Settings) -> Store:
    """The store, migrated first if a migration is pending (as the migration role when one is set: the
    app's own role may not change the schema)."""
    store = open_store(settings.database_url, pool_size=settings.pool_size)
    if store.pending_migrations():
        migrate_database(settings.database_url, settings.migration_database_url)
    return store


class TcpConfig(uvicorn.Config):
    """uvicorn's config, but the listening sockets of several workers are made as TCP sockets
    (`IPPROTO_TCP`): asyncio then sets TCP_NODELAY on every accepted connection. uvicorn makes them with
    protocol 0, which leaves Nagle's algorithm on, and every answer waited ~40 ms for the client's
    delayed ACK (measured by bench/: p50 48 ms with two workers, 6 ms with one)."""

    def bind_socket(self, port: int | None = None, reuse_port: bool = False) -> socket.socket:
        """A socket bound to the host and `port` (default: the configured one), not yet listening;
        `reuse_port` lets every worker bind one of its own to the same port (SO_REUSEPORT)."""
        if self.uds is not None or self.fd is not None:
            return super().bind_socket()
        family = socket.AF_INET6 if self.host and ":" in self.host else socket.AF_INET
        sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if reuse_port:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        sock.bind((self.host, self.port if port is None else port))
        sock.set_inheritable(True)
        return sock


class Workers(Multiprocess):
    """uvicorn's worker supervisor, but each worker listens on a socket of its own, all bound to one
    port with SO_REUSEPORT, so the kernel spreads new connections evenly over the workers. On one
    shared socket the worker that wakes first accepts every connection waiting: 16 clients connecting
    at once split 14 / 2 (bench/), and the busy worker's clients waited six times longer than the
    others while the other core idled."""

    def __init__(self, config: TcpConfig) -> None:
        # A plain bind first: it fails if anything listens on the port already (another server of the
        # same user would otherwise join the SO_REUSEPORT group silently), and picks the port for 0.
        with config.bind_socket() as probe:
            self.port: int = probe.getsockname()[1]
        self.tcp_config = config
        super().__init__(config, sockets=[])

    @property
    def sockets(self) -> list[socket.socket]:
        """The sockets for the next worker: uvicorn reads this once for each worker it starts (at start,
        on a restart, on SIGTTIN). The parent's copy closes when that worker's process object goes."""
        return [self.tcp_config.bind_socket(self.port, reuse_port=True)]

    @sockets.setter
    def sockets(self, _sockets: list[socket.socket]) -> None:
        pass  # Multiprocess.__init__ stores one list for all workers; each gets its own instead


def _port_free(config: TcpConfig, port: int | None = None) -> bool:
    """Whether the port (default: the configured one) can be listened on: uvicorn's own message for a
    taken port is a log line among others, easy to miss, so `serve` checks first and says it in one line."""
    if config.uds is not None or config.fd is not None:
        return True
    try:
        config.bind_socket(port).close()
    except OSError as error:
        if error.errno == errno.EADDRINUSE:
            return False
        raise
    return True


FIRST_CLUB = ("my-club", "My club")


def _first_club(settings: Settings, store: Store) -> None:
    """A new user's first start: on SQLite, with no club yet and no operator key to create one over HTTP,
    make a first club and print its key once (as notebook servers print their token), so that the next
    step is recording. Never again once the database has a club."""
    if settings.operator_key or not settings.database_url.startswith("sqlite"):
        return
    if store.list_clubs():
        return
    club_id, name = FIRST_CLUB
    store.create_club(club_id, name)
    token = _new_key(store, club_id, "scorekeeper")
    base = f"http://{settings.host}:{settings.port}"
    # Standard output only, once; never logged.
    print(
        f"\nA first club was made in this new database: {club_id!r} ({name}). Its scorekeeper key, shown only "
        f"this once:\n\n    {token}\n\nTry it:  curl -s {base}/clubs/{club_id} -H 'Authorization: Bearer {token}'\n"
        f"The club's pages: {base}/sign-in (sign in with that key)\nAPI documentation: {base}/docs\n",
        flush=True,
    )


def cmd_serve(args: argparse.Namespace) -> int:
    settings = _settings(args)
    # The workers are separate processes: they read their settings from the environment.
    for field in msgspec.structs.fields(Settings):
        value = getattr(settings, field.name)
        if value is not None:
            os.environ[f"TABLELOG_{field.name.upper()}"] = str(value)
    if settings.metrics and "PROMETHEUS_MULTIPROC_DIR" not in os.environ:
        # Each worker writes its figures to files here and a scrape sums them (service.http.metrics); a
        # directory of this run's own, so a restart counts from zero, as Prometheus expects.
        os.environ["PROMETHEUS_MULTIPROC_DIR"] = metrics_dir = tempfile.mkdtemp(prefix="tablelog-metrics-")
        atexit.register(shutil.rmtree, metrics_dir, ignore_errors=True)
    from service.logs import configure_logging

    configure_logging(settings.log_format, settings.log_level)
    config = TcpConfig(
        "service.app:app_factory",
        factory=True,
        host=settings.host,
        port=settings.port,
        workers=settings.workers,
        log_config=None,
        access_log=False,
    )
    for port, flag in ((config.port, "--port"), (settings.health_port, "--health-port")):
        if port is not None and not _port_free(config, port):
            print(
                f"tablelog serve: {config.host}:{port} is already in use (another tablelog serve still running?): "
                f"stop it, or choose another port with {flag}.",
                file=sys.stderr,
            )
            return 1
    if settings.migrate_on_start:
        store = _store(settings)  # migrate once here, before the workers start
        try:
            _first_club(settings, store)
        finally:
            store.close()
    if config.workers > 1:
        if hasattr(socket, "SO_REUSEPORT"):
            workers = Workers(config)
            get_logger().info("server.listening", host=config.host, port=workers.port, workers=config.workers)
            workers.run()
        else:  # one socket shared by all workers, as uvicorn does
            shared = config.bind_socket()
            get_logger().info(
                "server.listening", host=config.host, port=shared.getsockname()[1], workers=config.workers
            )
            Multiprocess(config, sockets=[shared]).run()
    else:
        uvicorn.Server(config).run()
    return 0


def cmd_migrate(args: argparse.Namespace) -> int:
    settings = _settings(args)
    applied = migrate_database(settings.database_url, settings.migration_database_url)
    print("applied: " + ", ".join(applied) if applied else "the schema is up to date")
    return 0


def cmd_club_create(args: argparse.Namespace) -> int:
    from service.limits import CLUB_ID_PATTERN, Limits, check_id

    check_id(Limits.of(), "club_id", args.club_id, CLUB_ID_PATTERN)
    store = _store(_settings(args))
    try:
        club = store.create_club(args.club_id, args.name)
    finally:
        store.close()
    print(f"club {club.club_id} created")
    return 0


def cmd_club_export(args: argparse.Namespace) -> int:
    """Write a whole club (players, resources, games, leagues, campaigns, tournaments; never its keys)."""
    from service.usecases.club_export import export_club
    from service.usecases.games import Records

    store = _store(_settings(args))
    try:
        document = export_club(Records(store, args.rulesets), args.club_id)
    finally:
        store.close()
    if args.output:
        Path(args.output).write_bytes(document + b"\n")
    else:
        sys.stdout.buffer.write(document + b"\n")
    return 0


def cmd_club_import(args: argparse.Namespace) -> int:
    """Create a club from a club export; every game is checked before anything is written."""
    from service.usecases.club_export import import_club
    from service.usecases.games import Records

    data = Path(args.file).read_bytes()
    store = _store(_settings(args))
    try:
        document = import_club(Records(store, args.rulesets), data)
    finally:
        store.close()
    print(
        f"club {document.club_id} imported: {len(document.players)} players, {len(document.resources)} resource "
        f"versions, {len(document.games)} games, {len(document.collections)} leagues, campaigns and tournaments"
    )
    return 0


def _new_key(store: Store, club_id: str, name: str, scope: Scope = "record", expires: datetime | None = None) -> str:
    """Create an API key for a club; returns its token (only its hash is stored)."""
    from service.usecases.access import new_key

    key_id, token, secret_hash = new_key()
    store.create_api_key(key_id, club_id, name, secret_hash, scope, expires)
    return token


def cmd_key_create(args: argparse.Namespace) -> int:
    store = _store(_settings(args))
    if store.get_club(args.club_id) is None:
        print(f"no club {args.club_id!r}", file=sys.stderr)
        return 2
    token = _new_key(store, args.club_id, args.name, args.scope, args.expires)
    store.close()
    # The token goes to standard output only, once; it is never logged.
    print(token)
    return 0


def cmd_key_list(args: argparse.Namespace) -> int:
    store = _store(_settings(args))
    if store.get_club(args.club_id) is None:
        print(f"no club {args.club_id!r}", file=sys.stderr)
        return 2
    keys = store.list_api_keys(args.club_id)
    store.close()
    print(f"{'KEY ID':<18} {'SCOPE':<9} {'CREATED':<20} {'EXPIRES':<20} {'REVOKED':<20} NAME")
    for key in keys:
        print(
            f"{key.key_id:<18} {key.scope:<9} {_minute(key.created_at):<20} {_minute(key.expires_at):<20} "
            f"{_minute(key.revoked_at):<20} {key.name}"
        )
    return 0


def cmd_key_revoke(args: argparse.Namespace) -> int:
    store = _store(_settings(args))
    key = store.get_api_key(args.key_id)
    if key is None:
        store.close()
        print(f"no key {args.key_id!r}", file=sys.stderr)
        return 2
    revoked = store.revoke_api_key(args.key_id)
    store.close()
    assert revoked is not None
    print(f"key {revoked.key_id} ({revoked.name}, club {revoked.club_id}) revoked at {_minute(revoked.revoked_at)}")
    return 0


def _minute(moment: datetime | None) -> str:
    return moment.astimezone(UTC).strftime("%Y-%m-%d %H:%M UTC") if moment is not None else "-"


def _expiry(text: str) -> datetime:
    """An expiry given on the command line: an ISO date or time (UTC when no zone is given)."""
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an ISO date or time: {text!r}") from None
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def cmd_export(args: argparse.Namespace) -> int:
    from service.usecases.games import GameRecords

    store = _store(_settings(args))
    try:
        record = store.get_game(args.club, args.game)
        if record is None:
            print(f"no game {args.game!r} in club {args.club!r}", file=sys.stderr)
            return 2
        lines = GameRecords(store, args.rulesets).export_stream(record.club_id, record.game_id)
    finally:
        store.close()
    document = b"".join(line + b"\n" for line in lines)
    if args.output:
        Path(args.output).write_bytes(document)
    else:
        sys.stdout.buffer.write(document)
    return 0


def cmd_report(args: argparse.Namespace) -> int:
    """A game's replay as one self-contained HTML file (the replay page's download, built by the same code)."""
    from service.pages.report import report_html
    from service.usecases.access import Principal
    from service.usecases.games import Records

    store = _store(_settings(args))
    try:
        # The operator's report: every view may be chosen, and no spectator delay holds a step back.
        document = report_html(
            Records(store, args.rulesets),
            Principal(operator=True),
            args.club,
            args.game,
            args.view,
            args.seat,
            language=args.language,
        ).encode()
    finally:
        store.close()
    if args.output:
        Path(args.output).write_bytes(document)
    else:
        sys.stdout.buffer.write(document)
    return 0


def cmd_verify(args: argparse.Namespace) -> int:
    """Check every event of the record against its game's hash chain and rules, and every game's head against
    the last signed checkpoint (when a checkpoint file is given); name each one that breaks."""
    from service.usecases import checkpoints
    from service.usecases.games import GameRecords

    settings = _settings(args)
    signed_file = args.checkpoints or settings.checkpoint_file
    key_file = args.public_key or settings.checkpoint_key
    try:
        signed = checkpoints.read_from(Path(signed_file)) if signed_file else []
        public = checkpoints.verifying_key(Path(key_file)) if signed_file and key_file else None
    except checkpoints.CheckpointError as error:
        print(error, file=sys.stderr)
        return 2
    if signed_file and public is None:
        print("checkpoints need the key that signed them: --public-key or the setting checkpoint_key", file=sys.stderr)
        return 2
    store = _store(settings)
    try:
        records = GameRecords(store, args.rulesets)
        breaks = list(records.verify(accept_unchained=args.accept_unchained))
        if public is not None:
            breaks += checkpoints.check(records, signed, public)
        checked = store.count_events()
    finally:
        store.close()
    for broken in breaks:
        print(
            f"club {broken.club_id}, game {broken.game_id}: event {broken.version} ({broken.type}): {broken.reason}",
            file=sys.stderr,
        )
    if breaks:
        print(f"{len(breaks)} breaks: the record was changed outside tablelog", file=sys.stderr)
        return 1
    against = f", every game's head against {len(signed)} signed checkpoints" if signed else ""
    print(f"{checked} events verified: every game's chain and rules hold{against}")
    return 0


def cmd_checkpoint(args: argparse.Namespace) -> int:
    """Sign every game's head and add the checkpoints to the file kept apart (or make a new signing key)."""
    from service.usecases import checkpoints
    from service.usecases.games import GameRecords

    try:
        if args.new_key:
            print(checkpoints.new_signing_key(Path(args.new_key)), end="")
            return 0
        settings = _settings(args)
        key_file, out = args.signing_key or settings.checkpoint_key, args.out or settings.checkpoint_file
        if not key_file or not out:
            print("a checkpoint needs a signing key and a file: --signing-key and --out, or settings", file=sys.stderr)
            return 2
        key = checkpoints.signing_key(Path(key_file))
        store = _store(settings)
        try:
            written = checkpoints.append_to(Path(out), checkpoints.take(GameRecords(store, args.rulesets), key))
        finally:
            store.close()
    except checkpoints.CheckpointError as error:
        print(error, file=sys.stderr)
        return 2
    print(f"{written} games checkpointed in {out}")
    return 0


def cmd_import(args: argparse.Namespace) -> int:
    from service.usecases.games import GameRecords

    lines = [line for line in Path(args.file).read_bytes().splitlines() if line.strip()]
    store = _store(_settings(args))
    try:
        if store.get_club(args.club) is None:
            print(f"no club {args.club!r}", file=sys.stderr)
            return 2
        record, result = GameRecords(store, args.rulesets).import_stream(
            args.club, lines, Recorder(club_id=args.club), game_id=args.game_id, accept_unchained=args.accept_unchained
        )
    finally:
        store.close()
    print(f"game {record.game_id} imported: {result.last_version} events")
    return 0


def cmd_resource_import(args: argparse.Namespace) -> int:
    from service.usecases.games import GameRecords

    path = Path(args.file)
    data = path.read_bytes()
    store = _store(_settings(args))
    try:
        if store.get_club(args.club) is None:
            print(f"no club {args.club!r}", file=sys.stderr)
            return 2
        stored = GameRecords(store, args.rulesets).import_resource(
            args.club, args.ruleset, args.kind, args.id or path.stem, data
        )
    finally:
        store.close()
    print(f"{args.kind} {stored.resource_id} version {stored.version} imported ({stored.content_hash})")
    return 0


def cmd_project(args: argparse.Namespace) -> int:
    """Run the projector in this process until stopped (SIGTERM, Ctrl-C), or until caught up."""
    import signal
    import threading

    from service.logs import configure_logging, get_logger
    from service.projector import Runner, projections, run

    settings = _settings(args)
    configure_logging(settings.log_format, settings.log_level)
    store = _store(settings)
    runners = [
        Runner(store, projection, batch=args.batch, lease_seconds=settings.projector_lease_seconds)
        for projection in projections(store, args.rulesets, snapshot_every=settings.snapshot_every)
    ]
    stop = threading.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: stop.set())
    log = get_logger()
    log.info("projector.started", projections=[r.name for r in runners])
    if settings.checkpoint_every_seconds > 0:
        signer = _checkpointer(settings, store, args.rulesets, stop)
        if signer is None:
            store.close()
            return 2
        signer.start()

    def on_batch(runner: Runner, applied: int) -> None:
        log.debug("projector.batch", projection=runner.name, events=applied)
        if args.until_caught_up and all(store.checkpoint(r.name) >= store.head_position() for r in runners):
            stop.set()

    try:
        if args.until_caught_up and all(store.checkpoint(r.name) >= store.head_position() for r in runners):
            return 0
        run(
            runners,
            stop,
            poll_seconds=settings.projector_poll_seconds,
            on_batch=on_batch,
            lag_warn_seconds=settings.projector_lag_warn_seconds,
        )
    finally:
        store.close()
    log.info("projector.stopped")
    return 0


def _checkpointer(settings: Settings, store: Store, rulesets: Rulesets, stop: Any) -> Any:
    """The projector's thread that signs a checkpoint every `checkpoint_every_seconds` (None, said why, when
    the key or the file is not set or the key cannot be read)."""
    import threading

    from service.logs import get_logger
    from service.usecases import checkpoints
    from service.usecases.games import GameRecords

    if not settings.checkpoint_key or not settings.checkpoint_file:
        print("checkpoint_every_seconds needs checkpoint_key and checkpoint_file", file=sys.stderr)
        return None
    try:
        key = checkpoints.signing_key(Path(settings.checkpoint_key))
    except checkpoints.CheckpointError as error:
        print(error, file=sys.stderr)
        return None
    out, records = Path(settings.checkpoint_file), GameRecords(store, rulesets)

    def sign() -> None:
        while not stop.wait(settings.checkpoint_every_seconds):
            try:
                written = checkpoints.append_to(out, checkpoints.take(records, key))
            except Exception:  # the next round tries again; the projections go on meanwhile
                get_logger().exception("checkpoint.failed")
            else:
                get_logger().info("checkpoint.written", games=written)

    return threading.Thread(target=sign, name="checkpoints", daemon=True)


def cmd_rebuild(args: argparse.Namespace) -> int:
    """Rebuild one projection from zero, with progress on stderr."""
    from service.projector import projections, rebuild

    settings = _settings(args)
    store = _store(settings)
    by_name = {p.name: p for p in projections(store, args.rulesets, snapshot_every=settings.snapshot_every)}
    if args.projection not in by_name:
        print(f"no projection {args.projection!r}; the projections are {', '.join(by_name)}", file=sys.stderr)
        store.close()
        return 2
    shown = -1

    def progress(done: int, total: int) -> None:
        nonlocal shown
        percent = 100 if total == 0 else min(100, done * 100 // total)
        if percent != shown:
            shown = percent
            bar = "#" * (percent // 4)
            print(
                f"\rrebuild {args.projection}: [{bar:<25}] {percent:3d}% ({done}/{total} events)",
                end="",
                file=sys.stderr,
                flush=True,
            )

    try:
        checkpoint = rebuild(
            store,
            by_name[args.projection],
            batch=args.batch,
            lease_seconds=settings.projector_lease_seconds,
            progress=progress,
        )
    finally:
        store.close()
    print(f"\n{args.projection} rebuilt up to position {checkpoint}", file=sys.stderr)
    return 0


def _database_flags(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--database-url", help="sqlite:///path.db (default ./tablelog.db) or postgresql://...")


def build_parser(rulesets: Rulesets) -> argparse.ArgumentParser:
    """The commands, for the games in `rulesets` (a resource import command per kind they read)."""
    parser = argparse.ArgumentParser(prog="tablelog", description="Game records and replays for tabletop clubs.")
    parser.set_defaults(rulesets=rulesets)
    commands = parser.add_subparsers(dest="command", required=True)
    _process_commands(commands)
    _club_commands(commands)
    _key_commands(commands)
    _game_commands(commands)
    _resource_commands(commands, rulesets)
    return parser


def _process_commands(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """The service's own processes and its schema: serve, project, rebuild, migrate."""
    serve = commands.add_parser("serve", help="run the HTTP service")
    _database_flags(serve)
    serve.add_argument("--host")
    serve.add_argument("--port", type=int)
    serve.add_argument("--health-port", type=int, help="answer /health on this port too, from a thread of each worker")
    serve.add_argument("--workers", type=int, help="worker processes (default 1)")
    serve.add_argument("--log-format", choices=["auto", "json", "console"])
    serve.set_defaults(run=cmd_serve)

    project = commands.add_parser("project", help="run the projector (read models) in this process")
    _database_flags(project)
    project.add_argument("--batch", type=int, default=500, help="events per transaction (default 500)")
    project.add_argument("--until-caught-up", action="store_true", help="stop once every projection is caught up")
    project.add_argument("--log-format", choices=["auto", "json", "console"])
    project.set_defaults(run=cmd_project)

    rebuild = commands.add_parser("rebuild", help="rebuild a projection from zero (games)")
    rebuild.add_argument("projection")
    rebuild.add_argument("--batch", type=int, default=2000, help="events per transaction (default 2000)")
    _database_flags(rebuild)
    rebuild.set_defaults(run=cmd_rebuild)

    migrate = commands.add_parser("migrate", help="apply schema migrations")
    _database_flags(migrate)
    migrate.set_defaults(run=cmd_migrate)


def _club_commands(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """`tablelog club create|export|import`."""
    club = commands.add_parser("club", help="clubs").add_subparsers(dest="action", required=True)
    club_create = club.add_parser("create", help="create a club")
    club_create.add_argument("club_id")
    club_create.add_argument("name")
    _database_flags(club_create)
    club_create.set_defaults(run=cmd_club_create)
    club_export = club.add_parser("export", help="write a whole club as one JSON document (never its keys)")
    club_export.add_argument("club_id")
    club_export.add_argument("-o", "--output")
    _database_flags(club_export)
    club_export.set_defaults(run=cmd_club_export)
    club_import = club.add_parser("import", help="create a club from a club export (every game re-validated)")
    club_import.add_argument("file")
    _database_flags(club_import)
    club_import.set_defaults(run=cmd_club_import)


def _key_commands(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """`tablelog key create|list|revoke`."""
    key = commands.add_parser("key", help="API keys").add_subparsers(dest="action", required=True)
    key_create = key.add_parser("create", help="create a club API key; prints the token once")
    key_create.add_argument("club_id")
    key_create.add_argument("--name", default="scorekeeper")
    key_create.add_argument(
        "--scope",
        choices=["record", "read", "spectate"],
        default="record",
        help="record: writes and every view; read: every view; spectate: public views, delayed",
    )
    key_create.add_argument("--expires", type=_expiry, help="when the key stops working (ISO date or time, UTC)")
    _database_flags(key_create)
    key_create.set_defaults(run=cmd_key_create)
    key_list = key.add_parser("list", help="a club's keys (never their tokens)")
    key_list.add_argument("club_id")
    _database_flags(key_list)
    key_list.set_defaults(run=cmd_key_list)
    key_revoke = key.add_parser("revoke", help="revoke a key (refused from its next request on every worker)")
    key_revoke.add_argument("key_id")
    _database_flags(key_revoke)
    key_revoke.set_defaults(run=cmd_key_revoke)


def _game_commands(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """A game's record: verify, export, import."""
    verify = commands.add_parser(
        "verify", help="check every event against its game's hash chain, rules and checkpoints"
    )
    verify.add_argument("--checkpoints", help="the signed checkpoints file (default: the setting checkpoint_file)")
    verify.add_argument("--public-key", help="the key that signed them, PEM (default: the setting checkpoint_key)")
    verify.add_argument(
        "--accept-unchained", action="store_true", help="do not count games recorded before links were kept"
    )
    _database_flags(verify)
    verify.set_defaults(run=cmd_verify)
    checkpoint = commands.add_parser("checkpoint", help="sign every game's head into a checkpoint file kept apart")
    checkpoint.add_argument("--signing-key", help="Ed25519 private key, PEM (default: the setting checkpoint_key)")
    checkpoint.add_argument("--out", help="the file checkpoints are added to (default: the setting checkpoint_file)")
    checkpoint.add_argument("--new-key", metavar="PATH", help="make a new signing key at PATH and print its public key")
    _database_flags(checkpoint)
    checkpoint.set_defaults(run=cmd_checkpoint)
    export = commands.add_parser("export", help="write a game's events as JSON Lines")
    export.add_argument("game")
    export.add_argument("--club", required=True, help="the game's club (game ids are each club's own)")
    export.add_argument("-o", "--output")
    _database_flags(export)
    export.set_defaults(run=cmd_export)

    report = commands.add_parser(
        "report", help="write a game's replay as one HTML file to keep or print (pictures, narration, notes, result)"
    )
    report.add_argument("game")
    report.add_argument("--club", required=True, help="the game's club (game ids are each club's own)")
    report.add_argument("--view", choices=("public", "seat", "full"), default="public", help="whose view (public)")
    report.add_argument("--seat", type=int, help="the seat of a seat view (0 is the first seat)")
    report.add_argument("--language", choices=LANGUAGES, default="en", help="the report's language (default en)")
    report.add_argument("-o", "--output", help="the file to write (default: standard output)")
    _database_flags(report)
    report.set_defaults(run=cmd_report)

    imp = commands.add_parser("import", help="import a game from JSON Lines (every event re-validated)")
    imp.add_argument("file")
    imp.add_argument("--club", required=True)
    imp.add_argument("--game-id", help="the game's id here (default: a readable one, e.g. 2026-11-26-mn-3)")
    imp.add_argument(
        "--accept-unchained", action="store_true", help="import an export whose links are missing (made before links)"
    )
    _database_flags(imp)
    imp.set_defaults(run=cmd_import)


def _resource_commands(commands: argparse._SubParsersAction[argparse.ArgumentParser], rulesets: Rulesets) -> None:
    """One command per kind of resource the rulesets read: `tablelog catalogue import atlantic-storm FILE`."""
    kinds: dict[str, list[str]] = {}
    for ruleset in rulesets:
        for kind in ruleset.resource_kinds:
            kinds.setdefault(kind, []).append(ruleset.name)
    kinds.setdefault("resource", [])
    for kind, readers in sorted(kinds.items()):
        group = commands.add_parser(kind, help=f"import a {kind}" + (f" ({', '.join(readers)})" if readers else ""))
        actions = group.add_subparsers(dest="action", required=True)
        importer = actions.add_parser("import", help=f"validate and store a club's {kind} file")
        importer.add_argument("ruleset")
        if kind == "resource":
            importer.add_argument("kind")
        importer.add_argument("file")
        importer.add_argument("--club", required=True)
        importer.add_argument("--id", help="resource id (default: the file name without extension)")
        _database_flags(importer)
        importer.set_defaults(run=cmd_resource_import, kind=None if kind == "resource" else kind)


def _refusals() -> dict[type[BaseException], tuple[int, Callable[[Any], str]]]:
    """How each error a command may meet is told: its exit status and its line (a resource's bad rows
    follow its line, one each). Status 2: something named does not exist; 1: a refusal."""
    import sqlite3

    import psycopg
    import psycopg_pool
    from litestar.exceptions import ValidationException

    from domain.ruleset import ResourceError
    from projections.errors import ProjectionError
    from service.limits import TooLarge
    from service.pages.report import ViewRefused
    from service.usecases.club_export import ClubImportError
    from service.usecases.games import BadEvent, BatchRuleError, NoSuchSeat, NotFound, SetupError

    def database(error: Exception) -> str:
        return f"the database refused or could not be reached: {str(error).strip() or type(error).__name__}"

    def rows(error: ResourceError) -> str:
        more = [f"  ({error.omitted} more errors not listed)"] if error.omitted else []
        listed = ("  " + ", ".join(f"{k}={v}" for k, v in r.items()) for r in error.errors)
        return "\n".join([error.message, *listed, *more])

    return {
        # Events are numbered as the lines of the file that holds them (blank lines aside).
        BatchRuleError: (
            1,
            lambda e: f"line {e.index + 1} ({e.event_type}) refused by rule {e.error.rule_id}: {e.error.message}",
        ),
        BadEvent: (1, lambda e: f"line {e.index + 1}: {e.message}"),
        ResourceError: (1, rows),
        NotFound: (2, str),
        NoSuchSeat: (2, str),
        ProjectionError: (1, str),
        ViewRefused: (1, str),
        SetupError: (1, str),
        ValidationException: (1, lambda e: e.detail),
        TooLarge: (1, str),
        ClubImportError: (1, str),
        UnknownRuleset: (1, str),
        StoreError: (1, str),
        OSError: (1, lambda e: f"{e.filename}: {e.strerror}" if e.filename and e.strerror else str(e)),
        sqlite3.Error: (1, database),
        psycopg.Error: (1, database),
        psycopg_pool.PoolTimeout: (1, database),
    }


def _refusal(error: BaseException) -> tuple[int, str] | None:
    """The status and text of an error the table knows (by its class or the nearest base class)."""
    table = _refusals()
    for kind in type(error).__mro__:
        if kind in table:
            status, text = table[kind]
            return status, text(error)
    return None


def main(argv: Sequence[str] | None = None, rulesets: Rulesets | None = None) -> int:
    """Entry point of the `tablelog` console script, for the games in `rulesets` (tests add their own) or
    else the environment's settings'. An error a command may meet (a taken id, a missing file, a refused
    import...) is told on stderr without a traceback: one line (a resource's bad rows one line each), and an
    exit status of 1, or 2 when something named does not exist."""
    rulesets = Settings.from_env().rulesets() if rulesets is None else rulesets
    args = build_parser(rulesets).parse_args(argv)
    try:
        return int(args.run(args))
    except Exception as error:
        refused = _refusal(error)
        if refused is None:
            raise
        status, text = refused
        print(text, file=sys.stderr)
        return status


if __name__ == "__main__":
    raise SystemExit(main())
