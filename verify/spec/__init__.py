"""Loading, validating and resolving cited rulesets against the rule catalogue."""

from .catalogue import Catalogue, Parameter, load_catalogue
from .registry import DEFAULT_RULESET, Registry, load_ruleset, registry
from .ruleset import Entry, Ruleset, RulesetFile, parse_ruleset_file

__all__ = ["Catalogue", "Parameter", "load_catalogue", "DEFAULT_RULESET", "Registry",
           "load_ruleset", "registry", "Entry", "Ruleset", "RulesetFile", "parse_ruleset_file"]
