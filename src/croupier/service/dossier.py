"""The dossier a player files with the regulator (issue 14, item 4; Dragon Six, Peru 2016,
Art. 12: "presentar un escrito ante la Dirección General de Juegos de Casino y Máquinas").

A PDF (reportlab, A4) of one decided dispute: the round's record as the player may read it,
the verification (what the ledger paid beside what ``croupier settle`` pays for the record,
and the shoe's commitment check), the decision and its reason, and the hash-chain entries
that cover them (R15), with the chain's head signed by the operator (Ed25519) so a regulator
checks them with the public key alone. Headings are given in Spanish beside English: the
regulators of the profiles that allow an appeal write Spanish.
"""

from __future__ import annotations

import io
from datetime import UTC, datetime
from typing import Any

from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle, getSampleStyleSheet
from reportlab.lib.units import mm
from reportlab.platypus import Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

_STYLES = getSampleStyleSheet()
TITLE = ParagraphStyle("dossier-title", parent=_STYLES["Title"], fontSize=16, leading=20)
HEADING = ParagraphStyle("dossier-heading", parent=_STYLES["Heading2"], fontSize=12, leading=15)
BODY = ParagraphStyle("dossier-body", parent=_STYLES["BodyText"], fontSize=9, leading=12)
CELL = ParagraphStyle("dossier-cell", parent=BODY, fontSize=8, leading=10)
MONO = ParagraphStyle("dossier-mono", parent=CELL, fontName="Courier", fontSize=7.5)

WIDTH = A4[0] - 30 * mm


def _escape(text: object) -> str:
    return str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def money(minor: int | None) -> str:
    """Minor units as units with two decimals (``-1234`` -> ``-12.34``).

    >>> money(-1234), money(5), money(None)
    ('-12.34', '0.05', '–')
    """
    if minor is None:
        return "–"
    sign = "-" if minor < 0 else ""
    return f"{sign}{abs(minor) // 100}.{abs(minor) % 100:02d}"


def when(seconds: float | None) -> str:
    if seconds is None:
        return "–"
    return datetime.fromtimestamp(seconds, UTC).strftime("%Y-%m-%d %H:%M:%S UTC")


def _grid(rows: list[list[Any]], widths: list[float], header: bool = True) -> Table:
    body = [
        [cell if isinstance(cell, Paragraph) else Paragraph(_escape(cell), CELL) for cell in row]
        for row in rows
    ]
    table = Table(body, colWidths=widths, repeatRows=1 if header else 0)
    style = [
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ("GRID", (0, 0), (-1, -1), 0.3, colors.HexColor("#9aa5b1")),
        ("TOPPADDING", (0, 0), (-1, -1), 2),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 2),
    ]
    if header:
        style.append(("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#dde4ee")))
    else:
        style.append(("BACKGROUND", (0, 0), (0, -1), colors.HexColor("#f0f3f7")))
    table.setStyle(TableStyle(style))
    return table


def _event_text(event: dict[str, Any]) -> str:
    """One recorded event on one line: its kind, then its fields (``seat=1 card=Td``)."""
    fields = " ".join(f"{name}={value}" for name, value in event.items() if name != "kind")
    return f"{event.get('kind')} {fields}".strip()


def _yes(value: object) -> str:
    if value is None:
        return "–"
    return "yes / sí" if value else "NO"


def _hex_lines(value: object, width: int = 64) -> str:
    """A long hex value broken into lines of ``width`` digits (a PDF line does not break
    inside a word); the reader joins them."""
    text = _escape(value if value is not None else "–")
    return "<br/>".join(text[start : start + width] for start in range(0, len(text), width))


HEAD_FIELDS = ("format", "seq", "hash", "at", "written_at", "public_key", "signature")


def _signed_head(head: dict[str, Any] | None) -> list[Any]:
    """The chain's head when the dossier was made, signed with the operator's key, and how a
    regulator checks it (docs/rules.md#D-GEN-16a)."""
    story: list[Any] = [Paragraph("The signed head / La cabeza firmada (R15)", HEADING)]
    if head is None:
        return [
            *story,
            Paragraph(
                _escape(
                    "This server signs no head (it runs with no audit key): ask the operator "
                    "for its published heads."
                ),
                BODY,
            ),
        ]
    story.append(
        Paragraph(
            _escape(
                "The audit chain's last entry when this dossier was made, signed by the operator "
                "with Ed25519: every entry listed above is at or before it. The signature covers "
                "every other field (canonical JSON); it is checked with the operator's public "
                "key alone, no secret. Copy the fields below into head.json (hex values are "
                "shown in lines: join them) and run: croupier audit verify --database URL "
                "--head head.json --public-key operator.pem, against the operator's database or "
                "a backup of it: exit 0 when the signature is the operator's and the chain, "
                "with every row it covers, still reaches this head."
            ),
            BODY,
        )
    )
    rows = [
        [name, Paragraph(_hex_lines(head[name]), MONO)]
        for name in (*HEAD_FIELDS, *sorted(set(head) - set(HEAD_FIELDS)))
        if name in head
    ]
    rows.append(["Head time / Hora", when(head.get("at"))])
    story.append(_grid(rows, [30 * mm, WIDTH - 30 * mm], header=False))
    return story


def render(facts: dict[str, Any]) -> bytes:
    """The dossier of ``disputes.dossier_facts`` as PDF bytes."""
    record = facts["round_record"]
    check = facts["verification"]
    shoe = check["commitment"]
    regulator = facts["rules"]["regulator"]
    story: list[Any] = [
        Paragraph(_escape(f"Dispute {facts['dispute']} · round {facts['round']} · dossier"), TITLE),
        Paragraph(
            _escape(
                f"Expediente de reclamo para / dossier for: {regulator}. Filed by / presentado "
                f"por: {facts['filed_by']}. Dragon Six, Peru 2016, Art. 12: a player who "
                "disagrees with the staff's decision may call the Inspector or file a written "
                "complaint with the Dirección General de Juegos de Casino y Máquinas."
            ),
            BODY,
        ),
        Spacer(1, 4 * mm),
        Paragraph("The dispute / El reclamo", HEADING),
        _grid(
            [
                ["Table / Mesa", f"{record['table']} ({record['game']})"],
                ["Rules / Reglas", record["rules_version"]],
                ["Round / Partida", f"{record['round']}: {record['status']}"],
                ["Started / Inicio", when(record["started_at"])],
                ["Ended / Fin", when(record["ended_at"])],
                ["Filed / Presentado", when(facts["filed_at"])],
                ["Text / Texto", facts["text"]],
                *(
                    [
                        "Dealt by hand / Repartido por",
                        f"{dealer['by']}: {dealer['cards']} cards entered / cartas, "
                        f"{when(dealer['from'])} – {when(dealer['to'])}",
                    ]
                    for dealer in record.get("dealt_by", [])
                ),
            ],
            [40 * mm, WIDTH - 40 * mm],
            header=False,
        ),
        Spacer(1, 4 * mm),
        Paragraph("The decision / La decisión", HEADING),
        _grid(
            [
                ["Decision / Decisión", facts["decision"]],
                ["Reason / Motivo", facts["reason"] or "–"],
                ["Decided / Fecha", when(facts["decided_at"])],
                ["Inspector", facts["decided_by"] or "–"],
                [
                    "Corrections / Correcciones",
                    ", ".join(
                        f"{item['username']}: {money(int(item['amount']))}"
                        for item in facts["corrections"]
                    )
                    or "none / ninguna",
                ],
            ],
            [40 * mm, WIDTH - 40 * mm],
            header=False,
        ),
        Spacer(1, 4 * mm),
        Paragraph("The verification / La verificación", HEADING),
        Paragraph(
            _escape(
                "Staked: what each player's wallet put on the round (its stakes and back "
                "bets). Paid: what the ledger paid each player for the round. Re-settled: what "
                "croupier settle pays for the round's recorded cards and decisions under its "
                "rules. Corrected: what upheld disputes have paid since (units, two decimals)."
            ),
            BODY,
        ),
    ]
    paid, resettled, corrected = check["paid"], check["resettled"] or {}, check["corrected"]
    staked = check.get("staked", {})
    names = sorted(
        set(paid) | set(resettled) | set(corrected) | set(staked) | set(facts["participants"])
    )
    rows: list[list[Any]] = [
        ["Player / Jugador", "Staked / Apostado", "Paid / Pagado", "Re-settled", "Corrected"]
    ]
    rows += [
        [
            name,
            money(staked.get(name, 0)),
            money(paid.get(name, 0)),
            money(resettled.get(name, 0)) if check["resettled"] is not None else "–",
            money(corrected.get(name, 0)),
        ]
        for name in names
    ]
    story += [
        _grid(rows, [WIDTH * 0.32] + [WIDTH * 0.17] * 4),
        Spacer(1, 2 * mm),
        _grid(
            [
                ["Paid agrees with re-settled", _yes(check.get("agrees"))],
                ["Shoe / Zapato", str(shoe["shoe"])],
                [
                    "Commitment (SHA-256)",
                    Paragraph(_escape(shoe["commitment"]), MONO)
                    if shoe["commitment"]
                    # A real shoe has no seed to commit to: its cards are those the dealer
                    # entered (their dealer and time above).
                    else "none: a physical shoe, dealt by hand / zapato físico, sin compromiso",
                ],
                ["Seed and order hash to it", _yes(shoe["commitment_holds"])],
                ["Round's cards are the shoe's next", _yes(shoe["cards_follow_the_shoe"])],
                ["Shoe revealed / revelado", _yes(shoe["is_revealed"])],
                ["Problem / Problema", check["problem"] or "none / ninguno"],
            ],
            [60 * mm, WIDTH - 60 * mm],
            header=False,
        ),
        Spacer(1, 4 * mm),
        Paragraph("The round's record / El registro de la partida", HEADING),
    ]
    events = record["events"]
    story.append(
        _grid(
            [["#", "Event / Evento"]]
            + [
                [str(index), Paragraph(_escape(_event_text(e)), MONO)]
                for index, e in enumerate(events)
            ],
            [12 * mm, WIDTH - 12 * mm],
        )
        if events
        else Paragraph("The round's record opens when it ends.", BODY)
    )
    story += [
        Spacer(1, 4 * mm),
        Paragraph("Hash-chain entries / Cadena de registro (R15)", HEADING),
    ]
    entries = facts["chain_entries"]
    if entries:
        story.append(
            Paragraph(
                _escape(
                    "Each entry of the audit chain that covers the dispute, the round's record, "
                    "the round's ledger transactions and entries, and the corrections: its "
                    "number, time, who made the change (actor), what it was (kind), the row it "
                    "covers, and its SHA-256 hash, which covers the previous entry's."
                ),
                BODY,
            )
        )
        story.append(
            _grid(
                [["Entry", "Time / Hora", "Kind, actor, row / Qué, quién, fila", "Hash"]]
                + [
                    [
                        str(e.get("sequence")),
                        when(e.get("at")),
                        Paragraph(
                            "<br/>".join(
                                _escape(e.get(name) or "–") for name in ("kind", "actor", "covers")
                            ),
                            CELL,
                        ),
                        Paragraph(_hex_lines(e.get("hash"), 32), MONO),
                    ]
                    for e in entries
                ],
                [12 * mm, 28 * mm, WIDTH - 12 * mm - 28 * mm - 60 * mm, 60 * mm],
            )
        )
    else:
        story.append(Paragraph("No hash-chain entry covers this dispute.", BODY))
    story += [Spacer(1, 4 * mm), *_signed_head(facts.get("signed_head"))]

    def footer(canvas: Any, document: Any) -> None:
        canvas.saveState()
        canvas.setFont("Helvetica", 7.5)
        canvas.setFillColor(colors.HexColor("#52606d"))
        canvas.drawString(
            15 * mm,
            10 * mm,
            f"croupier · dispute {facts['dispute']} · round {facts['round']} · "
            f"{record['rules_version']}",
        )
        canvas.drawRightString(A4[0] - 15 * mm, 10 * mm, f"page {document.page}")
        canvas.restoreState()

    buffer = io.BytesIO()
    SimpleDocTemplate(
        buffer,
        pagesize=A4,
        leftMargin=15 * mm,
        rightMargin=15 * mm,
        topMargin=15 * mm,
        bottomMargin=16 * mm,
        title=f"Dispute {facts['dispute']}, round {facts['round']}",
        author="croupier",
    ).build(story, onFirstPage=footer, onLaterPages=footer)
    return buffer.getvalue()
