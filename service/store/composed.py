"""A `Store` composed of a backend's parts.

Each backend builds its parts (the schema and connections, the event log, the projections, the read
models, the collections, the club records, the access records, the webhooks), several of them the same SQL on both
(`service.store.readmodels`, `service.store.access_sql`), and composes them here. Every `Store` method is the
part's own bound method, so a call costs nothing more than calling the part; the parts stay reachable by
name for code that wants one of them alone.
"""

from __future__ import annotations

from service.store.access import AccessStore
from service.store.access_sql import AccessTables
from service.store.base import ClubRecords, Collections, EventRecorder, Projections, ReadModels, Schema
from service.store.players_sql import PlayerTables
from service.store.readmodels import CollectionTables, ProjectionTables, ReadModelTables
from service.store.sql import Database
from service.store.webhooks import WebhookStore
from service.store.webhooks_sql import WebhookTables


class ComposedStore:
    """The `Store` of a backend's parts."""

    def __init__(self, *, schema: Schema, db: Database, events: EventRecorder, clubs: ClubRecords) -> None:
        """A backend's own parts are its schema, event log and club records; the others are the SQL both
        backends share, run on its `db` (the same object as `schema` in both backends)."""
        projections: Projections = ProjectionTables(db)
        read_models: ReadModels = ReadModelTables(db)
        collections: Collections = CollectionTables(db)
        access: AccessStore = AccessTables(db)
        webhooks: WebhookStore = WebhookTables(db)
        self.schema = schema
        self.events = events
        self.projections = projections
        self.read_models = read_models
        self.collections = collections
        self.clubs = clubs
        self.access = access
        self.webhooks = webhooks

        self.migrate = schema.migrate
        self.pending_migrations = schema.pending_migrations
        self.ping = schema.ping
        self.close = schema.close

        self.append = events.append
        self.restore_stream = events.restore_stream
        self.read_stream = events.read_stream
        self.stream_version = events.stream_version
        self.read_all = events.read_all
        self.read_club = events.read_club
        self.replayed_append = events.replayed_append
        self.change_token = events.change_token
        self.head_position = events.head_position
        self.count_events = events.count_events
        self.unprojected = events.unprojected

        self.checkpoints = projections.checkpoints
        self.checkpoint = projections.checkpoint
        self.commit_projection = projections.commit_projection
        self.reset_projection = projections.reset_projection
        self.acquire_lease = projections.acquire_lease
        self.release_lease = projections.release_lease
        self.lease_owner = projections.lease_owner

        self.game_summaries = read_models.game_summaries
        self.result_changes = read_models.result_changes
        self.finished_summaries = read_models.finished_summaries
        self.player_ratings = read_models.player_ratings
        self.rating_history = read_models.rating_history
        self.rating_points_since = read_models.rating_points_since
        self.rating_point = read_models.rating_point
        self.snapshots = read_models.snapshots
        self.replace_snapshots = read_models.replace_snapshots
        self.spectator_delay = read_models.spectator_delay
        self.spectator_delays = read_models.spectator_delays
        self.set_spectator_delay = read_models.set_spectator_delay

        self.create_collection = collections.create_collection
        self.get_collection = collections.get_collection
        self.list_collections = collections.list_collections
        self.add_collection_game = collections.add_collection_game
        self.collections_of_game = collections.collections_of_game
        self.record_removal = collections.record_removal
        self.removals = collections.removals

        self.create_club = clubs.create_club
        self.get_club = clubs.get_club
        self.list_clubs = clubs.list_clubs
        self.set_club_language = clubs.set_club_language
        self.create_player = clubs.create_player
        self.list_players = clubs.list_players
        self.get_players = clubs.get_players
        self.get_game = clubs.get_game
        self.set_game_title = clubs.set_game_title
        self.list_games = clubs.list_games
        self.add_resource = clubs.add_resource
        self.get_resource = clubs.get_resource
        self.list_resources = clubs.list_resources
        players = PlayerTables(db)  # the players' changes after they are added (migration 010)
        self.update_player, self.merge_player = players.update_player, players.merge_player
        self.player_merges, self.next_game_number = players.player_merges, players.next_game_number

        self._bind_access(access, webhooks)

    def _bind_access(self, access: AccessStore, webhooks: WebhookStore) -> None:
        """The access records' and the webhooks' methods, bound as the other parts' are in `__init__`."""
        self.create_api_key = access.create_api_key
        self.get_api_key = access.get_api_key
        self.list_api_keys = access.list_api_keys
        self.rename_api_key = access.rename_api_key
        self.revoke_api_key = access.revoke_api_key
        self.create_page_session = access.create_page_session
        self.get_page_session = access.get_page_session
        self.revoke_page_session = access.revoke_page_session
        self.create_share_link = access.create_share_link
        self.get_share_link = access.get_share_link
        self.list_share_links = access.list_share_links
        self.revoke_share_link = access.revoke_share_link
        self.access_generation = access.access_generation
        self.server_secret = access.server_secret

        self.create_webhook = webhooks.create_webhook
        self.get_webhook = webhooks.get_webhook
        self.list_webhooks = webhooks.list_webhooks
        self.delete_webhook = webhooks.delete_webhook
        self.enable_webhook = webhooks.enable_webhook
        self.rewind_webhook = webhooks.rewind_webhook
        self.delivery = webhooks.delivery
        self.due_webhooks = webhooks.due_webhooks
        self.webhook_delivered = webhooks.webhook_delivered
        self.webhook_failed = webhooks.webhook_failed
        self.webhook_deliveries = webhooks.webhook_deliveries
