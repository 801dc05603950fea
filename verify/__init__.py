"""Rules-variant verification toolkit for Monopoly rulebooks.

Pipeline: cited rulesets (``verify.spec``) compile into an engine config
(``verify.engine``) and into z3 constraints (``verify.smt``); ``verify.compare``
finds where rulebooks disagree and ``verify.report`` renders it all.
"""

__version__ = "0.1.0"
