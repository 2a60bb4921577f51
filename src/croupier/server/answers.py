"""The API's answers, as typed models: every 2xx answer of ``/openapi.json`` is one of these,
a named component, so that a client generated from the schema is typed both ways (issue 28,
item 6). They describe the JSON the service already builds, field for field (the contract);
the routes do not build them.

A route names its answer in its decorator, ``responses=documented(MeAnswer)``: the schema
documents it (``server.openapi`` keeps the model alone as the success's schema), and FastAPI
neither validates nor filters the answer with it at run time (no field can be dropped by a
model, and a request pays nothing for it: FastAPI still serialises the function's
``dict[str, Any]`` on its fast path). Schemathesis checks the real answers against these schemas
(``tests/server/test_openapi_fuzz.py``), and every API test reads each answer back through
its model (``tests/server/answer_support.py``): a field missing here, or of another type,
fails there.

Money is integer minor units (``*_minor``, a wallet's ``balance``, a ledger ``amount``),
except where the contract is a table's units: a bet's ``amount`` and a limit are whole
units, and a game view's ``stake`` and ``payout`` are units that may be a fraction (``7.5``
for a 3:2 blackjack on 5; ``money.json_number``).

A model leaves extra fields open (``extra`` is pydantic's default, ``ignore``): a field the
server adds later is no break for a client generated today.

>>> BetAnswer.model_validate({"round": 4, "seat": 1, "wager": "main", "amount": 5, "held": 500})
BetAnswer(round=4, seat=1, wager='main', amount=5, held=500)
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field


class Answer(BaseModel):
    model_config = ConfigDict(frozen=True)


Units = int | float
"""Table units in a game view: an int when whole, a float when a payout is a fraction
(``money.json_number``)."""

ShoeKind = Literal["physical", "random"]


# --- accounts and sessions ------------------------------------------------------------------
class SignedUp(Answer):
    """``POST /auth/signup``: the new account."""

    user: int
    username: str


class SignedIn(Answer):
    """``POST /auth/signin``: the bearer token of the new session."""

    token: str
    user: int
    username: str


class SignedOut(Answer):
    """``POST /auth/signout``: whose session ended."""

    signed_out: str


class MeAnswer(Answer):
    """``GET /me``: the caller's account and wallet balance (minor units)."""

    user: int
    username: str
    role: str
    balance: int


class RolesAnswer(Answer):
    """``GET /me/roles``: the staff roles of the caller's account."""

    username: str
    roles: list[str]


# --- wallets and the ledger -----------------------------------------------------------------
class PayoutCorrectionNote(Answer):
    """Why a statement line moved: the payout correction that posted it."""

    correction: int
    reason: str


class DisputeCorrectionNote(Answer):
    """Why a statement line moved: the upheld dispute that posted it."""

    dispute: int
    reason: str


class StatementEntry(Answer):
    """One movement of the wallet, minor units; ``round`` is ``null`` outside a round;
    ``correction`` is present only on a correction's line."""

    entry: int
    transaction: int
    kind: str
    reference: str
    round: int | None
    at: float
    amount: int
    balance_before: int
    balance_after: int
    correction: PayoutCorrectionNote | DisputeCorrectionNote | None = None


class StatementAnswer(Answer):
    """``GET /me/ledger``: the wallet's statement, newest first."""

    entries: list[StatementEntry]
    offset: int
    limit: int


class WalletMoved(Answer):
    """``POST /operator/wallets/{username}/credit`` and ``.../debit``: the ledger transaction
    and the wallet's balance after it (minor units)."""

    transaction: int
    username: str
    amount: int
    balance: int


class AuditAnswer(Answer):
    """``GET /operator/audit``: the ledger's problems (none when it holds), the sum of every
    balance (0), and each account's balance by ``kind:owner``."""

    problems: list[str]
    sum: int
    accounts: dict[str, int]


# --- a round as a viewer sees it (``GameRound.view``): one shape per game ---------------------
class DecisionAwaited(Answer):
    """The decision a round waits for: the seat and hand, the question, the legal actions in
    notation (``double 5``)."""

    seat: int
    question: str
    hand: int | None
    legal: list[str]


class CardPlace(Answer):
    """Where a physical shoe's next card goes: a ``purpose`` (``burn``, a seat's card, the
    dealer's...), with the seat and hand it goes to (``null`` for the house and a burn)."""

    purpose: str
    seat: int | None
    hand: int | None


class SettledWager(Answer):
    """A wager settled: its stake and payout in table units (a payout may be a fraction)."""

    seat: int
    wager: str
    hand: int | None
    stake: Units
    payout: Units
    result: str


class CardsAndTotal(Answer):
    """A hand of the house as the view shows it; a card the viewer may not see is ``??``."""

    cards: list[str]
    total: int | None


class BlackjackHand(Answer):
    """A blackjack hand of a box: a card dealt face down is ``??`` and ``total`` waits for it;
    ``soft`` when an Ace counts 11; ``result`` and ``payout`` ``null`` until settled."""

    hand: int
    cards: list[str]
    bet: Units
    total: int | None
    soft: bool
    result: str | None
    payout: Units | None


class CasinoHoldemHand(Answer):
    """A Casino Hold'em zone's two cards (``??`` to another viewer) and its hand's category
    once five cards are known; ``bet`` is the ante, plus the call once made."""

    hand: int
    cards: list[str]
    total: str | None
    bet: Units
    result: str | None
    payout: Units | None


class CasinoHoldemDealer(Answer):
    """The dealer's cards (``??`` until revealed), hand and whether it qualifies (Art. 14)."""

    cards: list[str]
    total: str | None
    hand: str | None
    qualifies: bool | None


class SeatView(Answer):
    """A seat of the round: its bets by wager (whole units), hands and settled wagers."""

    seat: int
    bets: dict[str, int]
    results: list[SettledWager]


class BlackjackSeat(SeatView):
    hands: list[BlackjackHand]


class BaccaratSeat(SeatView):
    """A baccarat zone bets on the coup's two hands: it holds no cards (``hands`` is empty)."""

    hands: Annotated[list[dict[str, Any]], Field(max_length=0)]


class CasinoHoldemSeat(SeatView):
    hands: list[CasinoHoldemHand]


class RoundView(Answer):
    """What every game's view holds: the game and its profile (``rules``), the phase, the
    viewer's seat (``null``: the public), the pending decision, the card a physical shoe
    waits for, the viewer's legal actions, every wager settled, the corrections made
    (the engine's correction events, each game's own: an open object) and whether it is
    done."""

    rules: str
    phase: str
    viewer: int | None
    pending: DecisionAwaited | None
    card_needed: CardPlace | None
    legal_actions: list[str]
    results: list[SettledWager]
    corrections: list[dict[str, Any]]
    done: bool


class BlackjackView(RoundView):
    """A blackjack round: the boxes' hands and the dealer's cards (the hole card ``??``)."""

    game: Literal["blackjack"]
    seats: list[BlackjackSeat]
    dealer: CardsAndTotal


class BaccaratView(RoundView):
    """A baccarat coup: the Player's and the Banker's hands and the winner once known."""

    game: Literal["baccarat"]
    seats: list[BaccaratSeat]
    player: CardsAndTotal
    banker: CardsAndTotal
    winner: str | None


class CasinoHoldemView(RoundView):
    """A Casino Hold'em game: the zones' cards, the dealer's, the board and the progressive
    meter (units)."""

    game: Literal["casino-holdem"]
    seats: list[CasinoHoldemSeat]
    dealer: CasinoHoldemDealer
    board: list[str]
    meter: Units


GameView = Annotated[BlackjackView | BaccaratView | CasinoHoldemView, Field(discriminator="game")]
"""A round as one viewer may see it, by its ``game``."""


# --- tables ---------------------------------------------------------------------------------
class WagerLimits(Answer):
    """A wager's table limits, whole units."""

    minimum: int
    maximum: int


class RecentCoup(Answer):
    """A baccarat table's last coup: the winner and the two hands' totals."""

    round: int
    winner: str
    player: int
    banker: int


class RecentHouseHand(Answer):
    """A blackjack or Casino Hold'em table's last round: the dealer's total (Casino Hold'em:
    the hand's category), how many cards, and (Casino Hold'em) whether it qualified."""

    round: int
    dealer: int | str | None
    cards: int
    qualifies: bool | None = None


class LobbyRound(Answer):
    """A table's round under way in the lobby: how many seats have a bet."""

    id: int
    status: str
    bets: int


class LobbyTable(Answer):
    """A table as the lobby lists it: ``seats`` maps a seat number to its player's name;
    ``next_limits`` the limits from the next round on, when the operator changed them;
    ``recent`` its last rounds' outcomes, newest first."""

    id: int
    name: str
    game: str
    profile: str
    title: str
    is_open: bool
    seats: dict[str, str]
    seat_count: int
    min_players: int
    round: LobbyRound
    limits: dict[str, WagerLimits]
    next_limits: dict[str, WagerLimits] | None
    recent: list[RecentCoup | RecentHouseHand]


class TablesAnswer(Answer):
    """``GET /tables``: every table."""

    tables: list[LobbyTable]


class AbsenceRounds(Answer):
    """Rounds missed before a seat sits out, and further ones before it is freed (D-GEN-15)."""

    sit_out: int
    free: int


class ShoeProgress(Answer):
    """Cards dealt from the shoe in play, of how many, and where the cut card sits."""

    dealt: int
    cards: int
    cut_card_at: int


class TableFacts(Answer):
    """The table: who sits where (seat number -> name), who sits out, its shoe and limits."""

    id: int
    name: str
    game: str
    profile: str
    is_open: bool
    seats: dict[str, str]
    sitting_out: list[int]
    absence_rounds: AbsenceRounds
    shoe: int | None
    shoe_cards: ShoeProgress | None
    shoe_kind: ShoeKind
    limits: dict[str, WagerLimits]
    next_limits: dict[str, WagerLimits] | None


class FeltBackBet(Answer):
    """A back bet riding on a box, seen by all (minor units)."""

    seat: int
    backer: str
    amount_minor: int


class PendingDecision(DecisionAwaited):
    """The decision awaited, with the action taken when its clock runs out."""

    default: str


class RoundState(Answer):
    """The round under way: its clock (``deadline``, epoch seconds), each seat's stake (minor
    units, by seat number), the back bets, the decision awaited, the card a physical shoe
    waits for, the public view and the caller's own seats' views (``mine``, by seat)."""

    id: int
    status: str
    deadline: float | None
    stakes: dict[str, int]
    back_bets: list[FeltBackBet]
    pending: PendingDecision | None
    card_needed: CardPlace | None
    public: GameView
    mine: dict[str, GameView]


class TableState(Answer):
    """``GET /tables/{id}``, and the answer of sitting down and leaving: the table and its
    round as the caller may see them (R6)."""

    table: TableFacts
    round: RoundState


class BetAnswer(Answer):
    """``POST /tables/{id}/bets``: the wager as placed (whole units) and all the seat now holds
    in the round (``held``, minor units)."""

    round: int
    seat: int
    wager: str
    amount: int
    held: int


class ReadyAnswer(Answer):
    """``POST /tables/{id}/ready``: whether the round was dealt at once."""

    round: int
    dealt: bool


class DecisionTaken(Answer):
    """``POST /tables/{id}/actions``: the decision as the round took it, in notation."""

    round: int
    seat: int
    action: str
    timeout: bool


class BackBetAnswer(Answer):
    """``POST /tables/{id}/back-bets`` and its consent: the back bet and its status."""

    back_bet: int
    status: str


# --- the operator's tables ------------------------------------------------------------------
class TableCreated(Answer):
    """``POST /operator/tables`` (201): the new table."""

    table: int
    name: str
    profile: str


class LimitsSet(Answer):
    """``POST /operator/tables/{id}/limits``: one wager's new limits (whole units), from the
    round after ``from_round_after`` on, with every wager's limits then and the rules'
    version they make."""

    table: int
    wager: str
    minimum: int
    maximum: int
    from_round_after: int
    limits: dict[str, WagerLimits]
    rules_version: str


class TableOpened(Answer):
    """``POST /operator/tables/{id}/open`` and ``.../close``: whether it is open now."""

    table: int
    is_open: bool


# --- recall and fairness --------------------------------------------------------------------
class RoundEvent(BaseModel):
    """One event of a round's record (``games.events``: ``CardDrawn``, ``Settled``...): its
    ``kind`` and that kind's own fields, an open object (each game records its own kinds). A
    card the reader may not see is ``??`` (R6)."""

    model_config = ConfigDict(frozen=True, extra="allow")

    kind: str


class BetStep(Answer):
    op: Literal["bet"]
    seat: int
    wager: str
    amount: int


class DealStep(Answer):
    op: Literal["deal"]


class ActStep(Answer):
    """A decision; ``timeout`` (present, ``true``) when the clock took the default."""

    op: Literal["act"]
    seat: int
    action: str
    timeout: bool | None = None


class ReturnStep(Answer):
    op: Literal["return"]
    seat: int
    reason: str


class CorrectionStep(Answer):
    """A dealer's correction, in the engine's notation (``exposed hole``)."""

    op: Literal["correction"]
    command: str


RoundInput = Annotated[
    BetStep | DealStep | ActStep | ReturnStep | CorrectionStep, Field(discriminator="op")
]
"""A command the round was given, as the live table's step (``games.commands.to_step``)."""


class RecalledSeat(Answer):
    """Who played a seat of the round (``role``: ``player`` or ``backer``)."""

    seat: int
    user: int
    username: str
    role: str


class RecalledBackBet(Answer):
    """A back bet that counted in the round (minor units); ``payout_minor`` ``null`` until
    settled."""

    id: int
    seat: int
    user: int
    backer: str
    wager: str
    amount_minor: int
    payout_minor: int | None
    status: str


class PayoutCorrection(Answer):
    """A correction of what a round paid a player (minor units; negative takes back), proposed
    by a dealer or the operator and decided by an inspector; ``transaction`` is the ledger's,
    once confirmed."""

    correction: int
    round: int
    table: str | None
    username: str | None
    amount: int
    reason: str
    status: str
    proposed_by: str | None
    proposed_at: float
    decided_by: str | None
    decided_at: float | None
    decision_reason: str | None
    transaction: int | None


class CardEntered(Answer):
    """A card a dealer entered from a physical shoe: where it went, at which position of the
    shoe, by whom and when, and the staff action that records it."""

    card: str
    went: CardPlace
    position: int
    by: str
    at: float
    action: int


class RecallStep(Answer):
    """One step of a recall: the command in notation (``null``: the opening), its events and
    the round's view after it."""

    command: str | None
    events: list[RoundEvent]
    view: GameView


class RoundRecordAnswer(Answer):
    """``GET /rounds/{id}``: a finished round's record as the caller may read it (R14).
    ``cards_entered`` (a physical shoe's, for an inspector), ``players`` (for whoever may
    propose a correction) and ``steps`` (``null`` when the record does not replay) are present
    only where they apply."""

    round: int
    status: str
    table: str
    table_id: int
    game: str
    rules_version: str
    shoe: int
    start_position: int
    seats: list[RecalledSeat]
    events: list[RoundEvent]
    inputs: list[RoundInput]
    back_bets: list[RecalledBackBet]
    started_at: float
    ended_at: float | None
    corrections: list[PayoutCorrection]
    cards_entered: list[CardEntered] | None = None
    may_propose_correction: bool
    players: list[str] | None = None
    steps: list[RecallStep] | None = None


class RoundInProgress(Answer):
    """A round of the caller's still under way: its record opens when it ends."""

    round: int
    status: Literal["in progress"]
    started_at: float
    net_minor: int


class MyRound(RoundRecordAnswer):
    """A round of the caller's that has ended: its record without the steps, and what it
    moved in the wallet (``net_minor``)."""

    net_minor: int


class MyRoundsAnswer(Answer):
    """``GET /me/rounds``: the caller's rounds, newest first."""

    rounds: list[RoundInProgress | MyRound]
    offset: int
    limit: int


class RevealedShoe(Answer):
    """What a shoe's commitment hashes, revealed when it ends (R18): the seed, the cards in
    order, the decks, the cut card's place and the rules' version."""

    seed: str
    order: list[str]
    decks: int
    cut_card_from_bottom: int | None
    rules_version: str


class PhysicalShoeMaking(Answer):
    """A physical shoe has no seed: its making as the dealer confirmed it, and its burns."""

    procedures: list[dict[str, Any]] | None
    opening: list[RoundEvent] | None


class ShoeRound(Answer):
    """A round dealt from the shoe, for its export."""

    round: int
    start_position: int
    status: str
    events: list[RoundEvent]


class ShoeAnswer(Answer):
    """``GET /shoes/{id}`` and ``.../export``: the shoe's commitment; once it has ended, to
    whoever may read it, its reveal (``revealed``, or ``physical`` for a dealer's shoe) and,
    for the export, its burns (``opening``) and rounds."""

    shoe: int
    table: str
    commitment: str
    rules_version: str
    is_revealed: bool
    physical: PhysicalShoeMaking | None = None
    revealed: RevealedShoe | None = None
    opening: list[RoundEvent] | None = None
    rounds: list[ShoeRound] | None = None


# --- the staff ------------------------------------------------------------------------------
class RoleChanged(Answer):
    """``POST /operator/staff`` (201) and ``DELETE /operator/staff/{username}/{role}``: the
    role and whether the account holds it now."""

    username: str
    role: str
    granted: bool


class StaffMember(Answer):
    """A staff account, its roles and (for a dealer) the tables it deals at."""

    username: str
    roles: list[str]
    tables: list[int]


class StaffAnswer(Answer):
    """``GET /operator/staff``."""

    staff: list[StaffMember]


class StaffActionRecord(Answer):
    """A staff action: its kind, who and when, its subject (``round:4``...) and its detail,
    each kind's own (an open object, with the ``actor``'s name)."""

    action: int
    kind: str
    by: str
    at: float
    subject: str
    detail: dict[str, Any]


class StaffActionsAnswer(Answer):
    """``GET /operator/staff/actions``: the staff's record, newest first."""

    actions: list[StaffActionRecord]


class TableDealers(Answer):
    """``POST /operator/tables/{id}/dealers`` and its ``DELETE``: the table's dealers now."""

    table: int
    dealers: list[str]


# --- disputes -------------------------------------------------------------------------------
class CorrectionOfDispute(Answer):
    """What a dispute's decision pays a player (minor units; negative takes back)."""

    username: str
    amount: int


class DisputeFiled(Answer):
    """``POST /rounds/{id}/disputes`` (201)."""

    dispute: int
    status: str


class DisputeSummary(Answer):
    """A dispute: its round, status and text, the decision and its reason once decided
    (``null`` before), the corrections it pays, who filed and who decided it, and when."""

    dispute: int
    round: int
    status: str
    text: str
    decision: str | None
    reason: str | None
    corrections: list[CorrectionOfDispute]
    filed_by: str | None
    filed_at: float
    decided_by: str | None
    decided_at: float | None


class CommitmentCheck(Answer):
    """The shoe's commitment check of a round (R18); at a physical shoe (``physical``) there is
    no commitment (``""``, ``commitment_holds`` ``null``) and ``cards_follow_the_shoe`` says
    whether its decks could hold every card entered."""

    shoe: int
    physical: bool | None = None
    commitment: str
    is_revealed: bool
    commitment_holds: bool | None
    cards_follow_the_shoe: bool


class DisputeInQueue(DisputeSummary):
    """A dispute in the inspector's queue, beside its round's verification: what the ledger
    ``paid`` each player, what ``croupier settle`` pays for the record (``resettled``,
    ``null`` where it does not re-settle, with the ``problem``), what corrections moved
    (minor units, by player name)."""

    paid: dict[str, int]
    resettled: dict[str, int] | None
    corrected: dict[str, int]
    commitment: CommitmentCheck
    problem: str | None


class DisputesAnswer(Answer):
    """``GET /inspector/disputes`` and ``GET /operator/disputes``: open ones first."""

    disputes: list[DisputeInQueue]


class Verification(Answer):
    """A round's re-settlement beside what was paid (minor units, by player name);
    ``agrees`` is present once the record was re-settled."""

    round_status: str
    paid: dict[str, int]
    corrected: dict[str, int]
    resettled: dict[str, int] | None
    problem: str | None
    commitment: CommitmentCheck
    agrees: bool | None = None


class DisputedRound(Answer):
    """The disputed round's record for the inspector: every card once it has ended."""

    round: int
    table: str
    game: str
    rules_version: str
    status: str
    started_at: float
    ended_at: float | None
    events: list[RoundEvent]
    cards_entered: list[CardEntered]


class DisputeRules(Answer):
    """The profile's dispute rules: the window to file, whether the decision is final, and
    the regulator a player may go to."""

    window_hours: int
    final: bool
    regulator: str | None


class DisputeAnswer(DisputeSummary):
    """``GET /inspector/disputes/{id}``: a dispute with its round's verification, players,
    record and the dispute rules."""

    verification: Verification
    participants: list[str]
    round_record: DisputedRound
    rules: DisputeRules


class MyDispute(DisputeSummary):
    """A dispute of the caller's: its own corrections only, whether the decision is final,
    the regulator, and whether a dossier for the regulator can be had."""

    final: bool
    regulator: str | None
    dossier: bool


class MyDisputesAnswer(Answer):
    """``GET /me/disputes``: the caller's disputes, newest first."""

    disputes: list[MyDispute]


class DisputeDecided(Answer):
    """``POST /inspector/disputes/{id}/decision`` (200): the decision, its corrections and the
    ledger transaction that paid them (``null`` without corrections)."""

    dispute: int
    status: str
    decision: str
    reason: str
    corrections: list[CorrectionOfDispute]
    transaction: int | None


class DisputeAwaitingApproval(Answer):
    """``POST /inspector/disputes/{id}/decision`` (202): corrections beyond what the round
    owes wait for a second inspector (``approval``); nothing moved."""

    dispute: int
    status: Literal["awaiting_approval"]
    approval: int


# --- corrections of payouts, voids and approvals ----------------------------------------------
class PayoutCorrectionInList(PayoutCorrection):
    """A correction beside what the ledger paid its player for the round, what the record
    re-settles to (``null`` where it does not) and what corrections moved (minor units)."""

    paid: int
    resettled: int | None
    corrected: int


class PayoutCorrectionsAnswer(Answer):
    """``GET /inspector/corrections`` and ``GET /operator/corrections``: proposed ones
    first."""

    corrections: list[PayoutCorrectionInList]


class RoundVoided(Answer):
    """``POST /rounds/{id}/void`` (200): the round voided, every stake in play returned."""

    round: int
    table: int
    status: Literal["voided"]
    reason: str


class VoidAwaitingApproval(Answer):
    """A void once a card was seen waits for an inspector (202): the approval asked."""

    round: int
    table: int
    status: Literal["awaiting_approval"]
    approval: int
    reason: str


class Resettlement(Answer):
    """The round's re-settlement beside what was paid, as the approval shows it."""

    round_status: str
    paid: dict[str, int]
    resettled: dict[str, int] | None
    corrected: dict[str, int]
    problem: str | None


class ApprovalAnswer(Answer):
    """A request that waits for a second inspector (``kind``: ``dispute`` or ``void``): who
    asked and why, the amounts (minor units), what the round owed each player when asked, the
    round's re-settlement, and the answer once given."""

    approval: int
    kind: str
    status: str
    round: int
    table: str | None
    dispute: int | None
    requested_by: str | None
    requested_at: float
    reason: str
    amounts: list[CorrectionOfDispute]
    owed: dict[str, int] | None
    resettlement: Resettlement
    decided_by: str | None
    decided_at: float | None
    decision_reason: str | None
    transaction: int | None


class ApprovalsAnswer(Answer):
    """``GET /inspector/approvals`` and ``GET /operator/approvals``: awaiting ones first."""

    approvals: list[ApprovalAnswer]


# --- the dealer -----------------------------------------------------------------------------
class DealerTable(Answer):
    """A table the caller deals at, with where its next card goes (``null``: none awaited)."""

    table: int
    name: str
    game: str
    profile: str
    shoe_kind: ShoeKind
    status: str
    next_card: CardPlace | None


class DealerTablesAnswer(Answer):
    """``GET /dealer/tables``."""

    tables: list[DealerTable]


class DealerShoe(Answer):
    """The shoe as its dealer makes it: the procedures confirmed and the next one, the burns
    still due (``null`` until the making is confirmed) and burnt, the cards out."""

    shoe: int | None
    procedures: list[str]
    next_procedure: str | None
    burns_left: int | None
    burnt: list[str]
    is_ready: bool
    cards_out: int
    cut_card_out: bool


class DealerState(Answer):
    """``GET /dealer/tables/{id}``: the table as its dealer sees it (a physical shoe's dealer
    every card; a random shoe's what a spectator sees, R6), the void awaiting an inspector
    (``void_waiting``, an approval), and the round's view."""

    table: int
    name: str
    game: str
    profile: str
    status: str
    round: int
    shoe_kind: ShoeKind
    shoe: DealerShoe
    next_card: CardPlace | None
    void_waiting: int | None
    view: GameView | None
    cards_entered: list[CardEntered] | None = None
    """At a physical shoe, each card of the round under way as entered: by whom and when."""


class ProcedureConfirmed(DealerState):
    """``POST /dealer/tables/{id}/shoe``: the procedure confirmed, by whom, and the table."""

    procedure: str
    by: str


class CardTaken(DealerState):
    """``POST /dealer/tables/{id}/cards``: the card entered, where it went, and the table
    (``round`` is the table's round after the card: the next one when it ended a round)."""

    card: str
    went: CardPlace


class LegalCorrections(Answer):
    """``GET /dealer/tables/{id}/corrections``: the corrections the round allows now and the
    places of the cards lying face down (never the cards)."""

    table: int
    round: int
    kinds: list[str]
    places: list[str]


class CorrectionMade(Answer):
    """``POST /dealer/tables/{id}/corrections`` (200): the correction in the engine's
    notation, its public events, whether it ended the round, and the staff action."""

    table: int
    round: int
    correction: str
    events: list[RoundEvent]
    round_over: bool
    action: int


class CorrectionAwaitingApproval(VoidAwaitingApproval):
    """``POST /dealer/tables/{id}/corrections`` (202): a void or a confused deal once a card
    was seen waits for an inspector."""

    correction: str


# --- health ---------------------------------------------------------------------------------
class Live(Answer):
    """``GET /health/live``."""

    status: Literal["live"]


class Ready(Answer):
    """``GET /health/ready`` and ``GET /health`` (200): each check ``ok``. A 503 answers
    ``{"status": "not_ready", "checks", "failed"}``, ``failed`` naming what does not hold."""

    status: Literal["ready"]
    checks: dict[str, str]


# --- reads of a table besides its round ------------------------------------------------------
class TableRoads(Answer):
    """``GET /tables/{id}/roads``: baccarat's bead plate and big road of the shoe in play
    (``roads.roads_document``), ``null`` at a table of another game."""

    table: int
    shoe: int | None
    roads: dict[str, Any] | None


class PostedLimit(Answer):
    """A wager's limits on the rules panel (whole units), with its return to player (``null``
    while the table's analysis runs)."""

    wager: str
    minimum: int
    maximum: int
    return_to_player: float | None


class Returns(Answer):
    """Whether the returns are ready, the play they assume (``basic`` for blackjack, ``null``
    where a game asks no decision the player must get right) and blackjack's basic strategy
    chart (``croupier analyze --json``'s ``strategy``, an open object)."""

    ready: bool
    play: str | None
    strategy: dict[str, Any] | None


class TableRules(Answer):
    """``GET /tables/{id}/rules``: the table's posted rules (``rules.posted``). ``paytables``
    (each wager's lines) and ``rules`` (the dealer's and the table's) are each game's own
    lines, worded by catalogue keys: open objects."""

    table: int
    profile: str
    game: str
    paytables: list[dict[str, Any]]
    rules: list[dict[str, Any]]
    limits: list[PostedLimit]
    returns: Returns


# --- the pages' reads (``web.api``) ----------------------------------------------------------
class ProfileWager(Answer):
    """A wager a seat may place, its limits in whole units; ``optional`` unless a seat must
    place it (blackjack's box bet, the Casino Hold'em Ante)."""

    name: str
    minimum: int
    maximum: int
    optional: bool


class ProfileFacts(Answer):
    """A profile as the pages offer it (``web.api.profile_facts``); ``playable`` when its
    game's engine is installed."""

    name: str
    game: str
    title: str
    seats: int
    seats_per_player: int
    min_players: int
    back_betting: bool
    wagers: list[ProfileWager]
    playable: bool


class ProfilesAnswer(Answer):
    """``GET /web/api/profiles``: the shipped profiles and those of open tables, and each
    table's (by table number), as its round under way is dealt."""

    profiles: list[ProfileFacts]
    tables: dict[str, ProfileFacts]


class PlayerBalance(Answer):
    id: int
    username: str
    balance: int


class PlayersAnswer(Answer):
    """``GET /web/api/operator/players``: every player's wallet balance (minor units)."""

    players: list[PlayerBalance]


class ShoeListed(Answer):
    id: int
    table: str
    commitment: str
    is_revealed: bool


class ShoesAnswer(Answer):
    """``GET /web/api/operator/shoes``: the latest shoes, newest first."""

    shoes: list[ShoeListed]


class BackBetListed(Answer):
    """A back bet of the caller's, or on a box of the caller's (minor units)."""

    id: int
    seat: int
    wager: str
    amount: int
    status: str
    backer: str
    is_mine: bool
    awaits_my_consent: bool


class BackBetsAnswer(Answer):
    """``GET /web/api/tables/{id}/back-bets``: the round's back bets the caller has a part in."""

    round: int
    back_bets: list[BackBetListed]


# --- the regulator's daily report (``reports.daily``) ----------------------------------------
class Tally(Answer):
    """A table's (or every table's) figures over a span of gaming days, minor units: ``hold``
    is (win + jackpot) / handle (``null`` without handle); the theoretical figures, the
    standard deviation and ``z`` are ``null`` while an analysis is not ready; ``flagged``
    when ``|z|`` passes the 99% band."""

    rounds: int
    handle_minor: int
    drop_minor: int
    win_minor: int
    jackpot_minor: int
    hold: float | None
    theoretical_win_minor: int | None
    theoretical_hold: float | None
    standard_deviation_minor: float | None
    z: float | None
    flagged: bool


class WagerHandle(Answer):
    wager: str
    handle_minor: int
    theoretical_win_minor: int | None


class TableDay(Tally):
    """A table's day, its handle per wager, and its month and year to date."""

    table: int
    name: str
    profile: str
    game: str
    wagers: list[WagerHandle]
    month_to_date: Tally
    year_to_date: Tally


class Totals(Tally):
    """Every table's day, month and year to date."""

    month_to_date: Tally
    year_to_date: Tally


class GamingDayWindow(Answer):
    """The gaming day: when it starts (``HH:MM``) in which time zone, and its window in epoch
    seconds (``from`` included, ``to`` not)."""

    model_config = ConfigDict(frozen=True, populate_by_name=True)

    starts: str
    time_zone: str
    from_: float = Field(alias="from")
    to: float


class DisputeOfTheDay(Answer):
    dispute: int
    round: int
    table: int | None
    status: str
    opened_at: float
    decided_at: float | None
    corrected_minor: int


class CorrectionOfTheDay(Answer):
    correction: int
    round: int
    table: int | None
    status: str
    amount_minor: int
    proposed_at: float
    decided_at: float | None


class VoidOfTheDay(Answer):
    round: int
    table: int
    ended_at: float
    reason: str | None


class Retention(Answer):
    """How long the records are kept (``reports.retention``)."""

    years: int
    kept_until: str
    deleted_by_croupier: str


class ReportModel(Answer):
    """How the report's figures are computed, in words, and the 99% band of ``z``."""

    hold: str
    z: str
    band: float
    play: str


class DailyReport(Answer):
    """``GET /operator/reports/daily`` (``format=json``): per table its rounds, handle, drop,
    win, hold, theoretical win and ``z`` with month and year to date; the day's disputes,
    corrections and voids; the profiles whose analysis was not ready."""

    date: str
    gaming_day: GamingDayWindow
    tables: list[TableDay]
    totals: Totals
    disputes: list[DisputeOfTheDay]
    corrections: list[CorrectionOfTheDay]
    voids: list[VoidOfTheDay]
    pending_analysis: list[str]
    retention: Retention
    model: ReportModel


# --- the back office's chart and players' day, the player's statement (issue 27, item 6) ---
class DayFigures(Tally):
    """One table's (or every table's) figures of one gaming day, as the daily report gives
    them (``Tally``) with that day's date."""

    date: str


class TableDays(Answer):
    table: int
    name: str
    profile: str
    game: str
    days: list[DayFigures]


class ReportGamingDay(Answer):
    starts: str
    time_zone: str


class DailyRangeReport(Answer):
    """``GET /operator/reports/daily-range``: each table's day by day, and the totals'."""

    from_: str = Field(alias="from")
    to: str
    gaming_day: ReportGamingDay
    tables: list[TableDays]
    totals: list[DayFigures]
    pending_analysis: list[str]


class ActivityLine(Answer):
    """One movement of the caller's wallet; ``at`` in epoch seconds, money in minor units."""

    entry: int
    transaction: int
    at: float
    kind: str
    round: int | None
    table: str | None
    game: str | None
    amount_minor: int
    balance_after_minor: int
    correction_reason: str | None


class ActivityStatement(Answer):
    """``GET /me/statement``: the caller's own wallet movements, oldest first."""

    from_: str = Field(alias="from")
    to: str
    lines: list[ActivityLine]


class PlayerDayFigures(Answer):
    """One player's gaming day (``reports.players``); money in minor units."""

    user: int
    username: str
    balance_minor: int
    rounds: int
    wagered_minor: int
    net_minor: int
    cashier_minor: int
    last_movement_at: float | None


class PlayersActivity(Answer):
    """``GET /operator/players/activity``: every player with what their wallet did that day."""

    date: str
    players: list[PlayerDayFigures]


# --- a player's protection (issue 27, items 1 to 3) ---------------------------------------------
class LimitChanged(Answer):
    """``POST /me/limits``, ``POST /me/reality-check``, ``POST /operator/players/{name}/limits``:
    the limit as set and when it applies (epoch seconds: now for a decrease, 24 hours on for
    the player's raise or removal). ``amount``: minor units, or minutes for ``session`` and
    ``reality_check``; ``None``: removed."""

    kind: Literal["deposit", "loss", "wager", "session", "reality_check"]
    period: Literal["day", "week", "month", "session"]
    amount: int | None
    effective_at: float


class LimitInForce(Answer):
    """One limit of ``GET /me/protection``: what applies (``amount``, the lower of the
    player's and the operator's; ``None``: none), what is used in the period and left, and
    when the period ends (``None`` for a session's time). Money in minor units; a session's
    time in minutes. A loss is net: ``used`` is negative after a net win."""

    kind: Literal["deposit", "loss", "wager", "session"]
    period: Literal["day", "week", "month", "session"]
    amount: int | None
    player_amount: int | None
    operator_amount: int | None
    used: int
    left: int | None
    resets_at: float | None


class LimitWaiting(Answer):
    """A player's raise or removal waiting for its 24 hours (``effective_at``)."""

    kind: str
    period: str
    amount: int | None
    effective_at: float


class PauseTaken(Answer):
    """``POST /me/break``, ``POST /me/self-exclusion``, and the pause of ``GET /me/protection``:
    from ``starts_at`` to ``ends_at`` (epoch seconds), no seat, bet or back bet."""

    kind: Literal["break", "self_exclusion"]
    starts_at: float
    ends_at: float


class PlayersSession(Answer):
    """When the player's session began (their earliest sign-in still live) and its minutes."""

    started_at: float
    played_minutes: int


class ProtectionAnswer(Answer):
    """``GET /me/protection`` (and the operator's ``/operator/players/{name}/protection``)."""

    limits: list[LimitInForce]
    pending: list[LimitWaiting]
    session: PlayersSession
    reality_check_minutes: int
    pause: PauseTaken | None


def documented(
    model: type[BaseModel], status: int = 200, *, accepted: type[BaseModel] | None = None
) -> dict[int | str, dict[str, Any]]:
    """A route's ``responses=``: its answer ``model`` with ``status``, and with ``accepted``
    the 202 of a request that waits for a second inspector. It documents the answer: FastAPI
    neither validates nor filters an answer by a model given here."""
    responses: dict[int | str, dict[str, Any]] = {status: {"model": model}}
    if accepted is not None:
        responses[202] = {
            "model": accepted,
            "description": "Accepted: it waits for a second inspector (`approval`)",
        }
    return responses


PDF: dict[int | str, dict[str, Any]] = {
    200: {
        "content": {"application/pdf": {"schema": {"type": "string", "format": "binary"}}},
        "description": "A PDF document",
    }
}
"""``responses=`` of a route whose answer is a PDF document, not JSON."""
