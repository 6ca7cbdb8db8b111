"""The layers' import rules (STYLE.md): domain/ is pure, projections/ is a pure fold over domain/,
nothing but service/ (and tests) imports service/."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# No I/O, clock, randomness, logging, framework or storage in the rules core.
IMPURE = {
    "service",
    "projections",
    "psycopg",
    "psycopg_pool",
    "litestar",
    "structlog",
    "sqlite3",
    "random",
    "logging",
    "os",
    "pathlib",
    "socket",
    "subprocess",
    "threading",
    "asyncio",
    "time",
    "urllib",
    "http",
    "uvicorn",
    "shutil",
    "tempfile",
    "secrets",
    "uuid",
}
# `datetime` is allowed for date values and `io` for in-memory text (CSV parsing), but never the clock:
CLOCK_CALLS = {"now", "today", "utcnow", "time", "monotonic", "perf_counter"}
PURE_FOLD_ALLOWED_EXTRA = {"domain"}


def imported_roots(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    roots = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            roots.add(node.module.split(".")[0])
    return roots


def offenders(package: str, forbidden: set[str]) -> dict[str, set[str]]:
    found = {}
    for path in sorted((ROOT / package).rglob("*.py")):
        bad = imported_roots(path) & forbidden
        if bad:
            found[str(path.relative_to(ROOT))] = bad
    return found


def test_the_domain_imports_no_io_framework_storage_or_other_layer() -> None:
    assert offenders("domain", IMPURE) == {}


def test_projections_import_only_the_domain_and_pure_libraries() -> None:
    assert offenders("projections", IMPURE - PURE_FOLD_ALLOWED_EXTRA - {"projections"}) == {}


def test_the_domain_and_projections_never_read_the_clock() -> None:
    for package in ("domain", "projections"):
        for path in (ROOT / package).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                    assert node.func.attr not in CLOCK_CALLS, f"{path}:{node.lineno} reads the clock"


def test_nothing_outside_the_service_imports_it() -> None:
    assert offenders("domain", {"service"}) == {} and offenders("projections", {"service"}) == {}


def test_service_and_projections_never_name_a_game_package() -> None:
    games = {p.name for p in (ROOT / "domain").iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    for package in ("service", "projections"):
        for path in (ROOT / package).rglob("*.py"):
            text = path.read_text(encoding="utf-8")
            for game in games:
                assert f"domain.{game}" not in text, f"{path} reaches {game} directly, not through the registry"


def test_the_boundary_check_catches_a_forbidden_import(tmp_path: Path) -> None:
    sample = tmp_path / "bad.py"
    sample.write_text("import random\nfrom service.app import create_app\nfrom domain import ruleset\n")
    assert imported_roots(sample) & IMPURE == {"random", "service"}


def _runtime_imports(path: Path, modules: set[str], *, typing_too: bool = False) -> set[str]:
    """The project modules `path` imports when it runs (anywhere in it, functions included), leaving out
    imports made only for type checking unless `typing_too`."""
    tree = ast.parse(path.read_text())
    typing_only = (
        set()
        if typing_too
        else {
            id(child)
            for node in ast.walk(tree)
            if isinstance(node, ast.If) and ast.unparse(node.test) in {"TYPE_CHECKING", "typing.TYPE_CHECKING"}
            for statement in node.body
            for child in ast.walk(statement)
        }
    )
    found: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                submodule = f"{node.module}.{alias.name}"
                found.add(submodule if submodule in modules else node.module)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return found & modules


def _cycle(graph: dict[str, set[str]]) -> list[str]:
    """One import cycle of `graph`, as the modules along it, or [] when there is none."""
    done: set[str] = set()

    def visit(module: str, path: list[str]) -> list[str]:
        if module in path:
            return [*path[path.index(module) :], module]
        if module in done:
            return []
        for imported in sorted(graph[module]):
            if found := visit(imported, [*path, module]):
                return found
        done.add(module)
        return []

    for module in sorted(graph):
        if found := visit(module, []):
            return found
    return []


def test_no_module_imports_a_module_that_imports_it_back() -> None:
    """One composition root assembles the app: a handler module never imports it back (app <-> the
    projections controller was such a cycle, kept apart by an import inside a function); in a game package
    the rules core and its expansion modules share what both read from a module below them (Mémoire 44's
    rules <-> airplay was a cycle, closed by an import at the end of rules.py)."""
    files = _modules("domain", "service", "projections")
    graph = {name: _runtime_imports(path, set(files)) - {name} for name, path in files.items()}
    assert _cycle(graph) == []


def _imported_modules(path: Path) -> set[str]:
    """Every module `path` imports from, by name (at the top or inside a function)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module)
    return found


def test_the_benches_play_the_games_random_tables_from_testkit_not_from_the_tests() -> None:
    """The seeded random tables, the test ruleset Tally and the cluster the benches start are in testkit/,
    which the tests import too: bench/ and testkit/ import nothing from tests/."""
    from_tests = {
        str(path.relative_to(ROOT)): {m for m in _imported_modules(path) if m.split(".")[0] == "tests"}
        for layer in ("bench", "testkit")
        for path in sorted((ROOT / layer).rglob("*.py"))
    }
    assert {path: modules for path, modules in from_tests.items() if modules} == {}


def test_no_service_module_imports_one_that_imports_it_back_even_for_type_checking() -> None:
    """store/base.py named the read-model rows of readmodels.py for type checking while readmodels.py
    imported base.py; the rows now live in base.py beside the Protocols that use them."""
    files = _modules("service")
    graph = {name: _runtime_imports(path, set(files), typing_too=True) - {name} for name, path in files.items()}
    assert _cycle(graph) == []


def _modules(*layers: str) -> dict[str, Path]:
    """The project's modules under `layers`, by dotted name."""
    return {
        ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__"): path
        for layer in layers
        for path in (ROOT / layer).rglob("*.py")
    }


def _reaches(package: str, forbidden: tuple[str, ...]) -> dict[str, set[str]]:
    """Each module of `package` that imports (anywhere, type checking included) a module under one of
    `forbidden`, with what it imports."""
    modules = _modules("service")
    found = {}
    for name, path in _modules(package).items():
        bad = {m for m in _runtime_imports(path, set(modules), typing_too=True) if m.startswith(forbidden)}
        if bad:
            found[name] = bad
    return found


# service/ in layers (issue 24): app.py composes http/ and pages/, which call usecases/, which use store/.
CONTROLLERS, PAGES, USE_CASES, STORE, ROOT_OF_APP = (
    "service.http",
    "service.pages",
    "service.usecases",
    "service.store",
    "service.app",
)


def test_the_store_imports_no_use_case_controller_page_or_the_app() -> None:
    assert _reaches("service/store", (CONTROLLERS, PAGES, USE_CASES, ROOT_OF_APP)) == {}


def test_use_cases_import_no_controller_page_nor_the_app() -> None:
    assert _reaches("service/usecases", (CONTROLLERS, PAGES, ROOT_OF_APP)) == {}


def _store_imports(package: str) -> dict[str, set[str]]:
    """Each module of `package` that imports a store module when it runs (type checking left out)."""
    modules = _modules("service")
    found = {}
    for name, path in _modules(package).items():
        bad = {m for m in _runtime_imports(path, set(modules)) if m.startswith(STORE)}
        if bad:
            found[name] = bad
    return found


def test_controllers_and_pages_never_import_the_store() -> None:
    """They call use cases (`service.usecases`), which hold the store's parts; the records a handler
    names come through `service.usecases.types`. A store type named for type checking only is allowed."""
    assert _store_imports("service/http") == {}
    assert _store_imports("service/pages") == {}


def _controller_modules() -> set[str]:
    """The modules of http/ that hold route handlers: a `Controller` class, or a `HANDLERS` list."""
    found = set()
    for name, path in _modules("service/http").items():
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            bases = {ast.unparse(b) for b in node.bases} if isinstance(node, ast.ClassDef) else set()
            targets = {ast.unparse(t) for t in node.targets} if isinstance(node, ast.Assign) else set()
            named = {ast.unparse(node.target)} if isinstance(node, ast.AnnAssign) else set()
            if "Controller" in bases or "HANDLERS" in targets | named:
                found.add(name)
    return found


def test_no_page_imports_a_controller() -> None:
    controllers = _controller_modules()
    assert {"service.http.games", "service.http.replays", "service.http.collections"} <= controllers
    modules = set(_modules("service"))
    imported = {
        name: found
        for name, path in _modules("service/pages").items()
        if (found := _runtime_imports(path, modules, typing_too=True) & controllers)
    }
    assert imported == {}


def _store_calls(package: str) -> list[str]:
    """Where a module of `package` reaches a store through an attribute named `store` (`records.store`,
    `state.store`)."""
    return [
        f"{path.relative_to(ROOT)}:{node.lineno}"
        for path in sorted((ROOT / package).rglob("*.py"))
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Attribute) and node.attr == "store"
    ]


def test_controllers_and_pages_never_call_the_store() -> None:
    assert _store_calls("service/pages") == []
    assert _store_calls("service/http") == []


def test_controllers_import_no_page_nor_the_app() -> None:
    assert _reaches("service/http", (PAGES, ROOT_OF_APP)) == {}


def test_the_layer_check_sees_imports_inside_functions_and_for_type_checking(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n"
        "    from service.pages import reads\n"
        "def handler() -> None:\n"
        "    from service.http.guards import GUARDS\n"
    )
    modules = {"service.pages.reads", "service.http.guards"}
    assert _runtime_imports(sample, modules, typing_too=True) == modules
    assert _runtime_imports(sample, modules) == {"service.http.guards"}


def _names_the_whole_store(path: Path, roots: set[str]) -> list[str]:
    """Where `path` types a parameter, a result, an attribute or a class's base as the whole `Store`, outside
    the classes named in `roots`."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    in_roots = {
        id(node)
        for root in ast.walk(tree)
        if isinstance(root, ast.ClassDef) and root.name in roots
        for node in ast.walk(root)
    }

    def whole(annotation: ast.expr | None) -> bool:
        return annotation is not None and any(
            (isinstance(n, ast.Name) and n.id == "Store")
            or (isinstance(n, ast.Attribute) and n.attr == "Store")
            or (
                isinstance(n, ast.Constant)
                and isinstance(n.value, str)
                and re.search(r"\bStore\b", n.value) is not None
            )
            for n in ast.walk(annotation)
        )

    found = []
    for node in ast.walk(tree):
        if id(node) in in_roots:
            continue
        typed: list[ast.expr | None] = []
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            arguments = node.args
            every = [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs, arguments.vararg, arguments.kwarg]
            typed = [a.annotation for a in every if a is not None] + [node.returns]
        elif isinstance(node, ast.AnnAssign):
            typed = [node.annotation]
        elif isinstance(node, ast.ClassDef):
            typed = list(node.bases)
        if any(whole(annotation) for annotation in typed):
            found.append(f"{path.relative_to(path.parents[2])}:{node.lineno}")
    return found


STORE_ROOTS = {"Records"}
"""The one use case class that holds the whole store (`service.usecases.games.Records`: what the app's wiring
makes and a request holds); every other use case is given the store parts it names."""


def test_no_use_case_takes_the_whole_store_but_the_records_the_app_wires() -> None:
    found = [
        where
        for path in sorted((ROOT / "service/usecases").rglob("*.py"))
        for where in _names_the_whole_store(path, STORE_ROOTS)
    ]
    assert found == []


def test_the_whole_store_check_sees_parameters_attributes_results_and_bases(tmp_path: Path) -> None:
    sample = tmp_path / "service" / "usecases" / "sample.py"
    sample.parent.mkdir(parents=True)
    sample.write_text(
        "class Records:\n"
        "    def __init__(self, store: Store) -> None: ...\n"
        "class Tally:\n"
        "    store: base.Store\n"
        "    def __init__(self, store: ReadModels, *, all: 'Store') -> None: ...\n"
        "    def whole(self) -> Store | None: ...\n"
        "class Everything(Store, Protocol): ...\n"
        "def fine(store: ReadModels) -> ReadModels: ...\n"
    )
    assert sorted(_names_the_whole_store(sample, STORE_ROOTS)) == [
        f"service/usecases/sample.py:{n}" for n in (4, 5, 6, 7)
    ]


def _private_imports(path: Path) -> list[str]:
    """The private names (`_page`, not `__version__`) `path` imports from a module of the project."""
    return [
        f"{node.module}.{alias.name}"
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module
        if node.module.split(".")[0] in {"service", "domain", "projections"}
        for alias in node.names
        if alias.name.startswith("_") and not alias.name.startswith("__")
    ]


def test_no_service_module_imports_another_modules_private_helpers() -> None:
    """What two pages share is public where it lives (`service.pages.forms`: a form's id field, the page that
    shows a form again), so no page takes another's private helpers (the webhook pages took admin's)."""
    found = {
        str(path.relative_to(ROOT)): names
        for path in sorted((ROOT / "service").rglob("*.py"))
        if (names := _private_imports(path))
    }
    assert found == {}


def test_the_private_import_check_sees_a_private_helper(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text("from service import __version__\nfrom service.pages.admin import Errors, _id, _page\n")
    assert _private_imports(sample) == ["service.pages.admin._id", "service.pages.admin._page"]
