"""Tournament formats: pure algorithms on entrant ids (standard library only, no Django).

- `single_elimination_bracket` and `double_elimination_bracket` build a `Bracket` of `Slot`s;
  `resolve` folds results (slot id -> winner id) into a `BracketState`; `slots_to_reset` lists
  what a corrected result invalidates.
- `round_robin_schedule` and `snake_groups` schedule leagues and groups; `swiss_round` pairs the
  next Swiss round; `plan_groups_then_knockout` and `knockout_stage` chain groups into a crossed
  knockout.
- `round_robin_threes_schedule` and `swiss_threes_round` draw tables of three;
  `threes_knockout_bracket` and `resolve_threes_knockout` a knockout whose table winners advance
  (decision 0031).
"""
