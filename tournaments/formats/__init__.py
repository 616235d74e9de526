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

from tournaments.formats.bracket import (
    BYE,
    Advance,
    Bracket,
    Bye,
    Kind,
    Known,
    LoserOf,
    Round,
    Section,
    Side,
    Slot,
    Source,
    WinnerOf,
)
from tournaments.formats.double_elimination import (
    GRAND_FINAL,
    GRAND_FINAL_RESET,
    double_elimination_bracket,
    drop_orders,
)
from tournaments.formats.errors import (
    DuplicateEntrant,
    FormatError,
    InvalidEntrant,
    InvalidFormatOption,
    InvalidStandings,
    SlotNotPlayable,
    SwissRoundOutOfRange,
    TooFewEntrants,
    UnknownSlot,
    WinnerNotInSlot,
)
from tournaments.formats.groups_then_knockout import (
    Group,
    GroupStage,
    GroupsThenKnockout,
    group_stage,
    knockout_bracket,
    knockout_seeds,
    knockout_stage,
    plan_groups_then_knockout,
)
from tournaments.formats.pairing import Pairing
from tournaments.formats.resolution import (
    BracketState,
    Occupant,
    Placement,
    SlotState,
    SlotStatus,
    dependent_slots,
    resolve,
    slots_to_reset,
)
from tournaments.formats.round_robin import (
    RoundRobin,
    RoundRobinRound,
    group_label,
    round_robin_schedule,
    snake_groups,
)
from tournaments.formats.single_elimination import (
    THIRD_PLACE,
    bracket_line_seeds,
    bracket_size,
    single_elimination_bracket,
)
from tournaments.formats.swiss import (
    DEFAULT_SEARCH_LIMIT,
    SwissEntrant,
    SwissRound,
    recommended_rounds,
    swiss_round,
)
from tournaments.formats.threes import (
    Table,
    ThreesRound,
    ThreesRoundRobin,
    ThreesSwissRound,
    byes_per_round,
    full_round_robin_rounds,
    round_robin_threes_schedule,
    swiss_threes_round,
    table_sizes,
)
from tournaments.formats.threes_knockout import (
    KnockoutTable,
    KnockoutTableState,
    TableStatus,
    ThreesKnockout,
    ThreesKnockoutState,
    resolve_threes_knockout,
    threes_bracket_line_seeds,
    threes_bracket_size,
    threes_knockout_bracket,
)

__all__ = [
    "BYE",
    "DEFAULT_SEARCH_LIMIT",
    "GRAND_FINAL",
    "GRAND_FINAL_RESET",
    "THIRD_PLACE",
    "Advance",
    "Bracket",
    "BracketState",
    "Bye",
    "DuplicateEntrant",
    "FormatError",
    "Group",
    "GroupStage",
    "GroupsThenKnockout",
    "InvalidEntrant",
    "InvalidFormatOption",
    "InvalidStandings",
    "Kind",
    "KnockoutTable",
    "KnockoutTableState",
    "Known",
    "LoserOf",
    "Occupant",
    "Pairing",
    "Placement",
    "Round",
    "RoundRobin",
    "RoundRobinRound",
    "Section",
    "Side",
    "Slot",
    "SlotNotPlayable",
    "SlotState",
    "SlotStatus",
    "Source",
    "SwissEntrant",
    "SwissRound",
    "SwissRoundOutOfRange",
    "Table",
    "TableStatus",
    "ThreesKnockout",
    "ThreesKnockoutState",
    "ThreesRound",
    "ThreesRoundRobin",
    "ThreesSwissRound",
    "TooFewEntrants",
    "UnknownSlot",
    "WinnerNotInSlot",
    "WinnerOf",
    "bracket_line_seeds",
    "bracket_size",
    "byes_per_round",
    "dependent_slots",
    "double_elimination_bracket",
    "drop_orders",
    "full_round_robin_rounds",
    "group_label",
    "group_stage",
    "knockout_bracket",
    "knockout_seeds",
    "knockout_stage",
    "plan_groups_then_knockout",
    "recommended_rounds",
    "resolve",
    "resolve_threes_knockout",
    "round_robin_schedule",
    "round_robin_threes_schedule",
    "single_elimination_bracket",
    "slots_to_reset",
    "snake_groups",
    "swiss_round",
    "swiss_threes_round",
    "table_sizes",
    "threes_bracket_line_seeds",
    "threes_bracket_size",
    "threes_knockout_bracket",
]
