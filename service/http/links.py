"""Where the API serves what the problem details and the pages link to (no controller here: the pages
import it, and a page never imports a controller)."""


def rule_url(ruleset_name: str, rule_id: str) -> str:
    """Where the API serves a rule's entry."""
    return f"/rulesets/{ruleset_name}/rules/{rule_id}"
