"""Balance studies: how rulesets play, compared on many seeded games (``verify study``).

Stages, each its own module: ``collect`` (what the game loop reports per
player-turn, through the engine's ``observe`` hook, folded into exact
mergeable sums in the worker), ``analysis`` (the study document: length
distribution, stalls and limits, win share by seat with Wilson 95 %
intervals, bankruptcies, houses and the bank's stock over time, money in
play over time, time to the first complete colour group), ``charts`` (SVG
geometry) and ``page`` (the HTML page, in the look of the main report).
The games themselves are a simulation campaign (``verify.engine.campaign``)
run by the execution layer, so a study runs on processes or a Dask cluster,
resumes, and gives the same document however it was run.
"""
