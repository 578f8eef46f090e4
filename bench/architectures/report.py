"""Turn the records into the tables `make bench` prints and docs/EVOLUTION.md carries.

Everything in the document is a count or a token figure from a pinned clock and a fresh database,
so it is the same on every machine; wall time is printed only.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from math import comb
from statistics import mean

from .micro import Micro
from .run import Record

ARCHITECTURES = ("ReAct", "ReAct + buttons", "Plan-Execute", "Router (untrimmed)", "Router + trimming")
KINDS = ("query", "create", "update", "bulk", "delete", "decompose", "report", "risk", "clarify", "help")


def _table(header: Sequence[str], rows: Iterable[Sequence[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def _of(records: list[Record], architecture: str, driver: str) -> list[Record]:
    return [r for r in records if r.architecture == architecture and r.driver == driver]


def _mean(values: Iterable[float], digits: int = 1) -> str:
    values = list(values)
    return f"{mean(values):.{digits}f}" if values else "—"


def _share(part: int, whole: int) -> str:
    return f"{part}/{whole} ({100 * part / whole:.0f}%)" if whole else "—"


def _row(label: str, records: list[Record], driver: str, cell: Callable[[list[Record]], str]) -> list[str]:
    return [label, *(cell(_of(records, a, driver)) for a in ARCHITECTURES)]


def cost_table(records: list[Record], *, wall: bool = False, driver: str = "oracle") -> str:
    """What each architecture costs and gets right with one model (the oracle, unless told)."""
    rows = [
        _row("LLM calls per request, mean", records, driver, lambda rs: _mean((r.calls for r in rs), 2)),
        _row("… quick-button requests", records, driver,
             lambda rs: _mean((r.calls for r in rs if r.via == "button"), 2)),
        _row("… free-text requests", records, driver, lambda rs: _mean((r.calls for r in rs if r.via == "text"), 2)),
        _row("requests routed with 0 LLM calls", records, driver,
             lambda rs: _share(sum(not r.routed_by_model for r in rs), len(rs))),
        _row("requests served with 0 LLM calls", records, driver,
             lambda rs: _share(sum(r.calls == 0 for r in rs), len(rs))),
        _row("prompt tokens per request, mean", records, driver, lambda rs: _mean((r.prompt_tokens for r in rs), 0)),
        _row("… quick-button requests", records, driver,
             lambda rs: _mean((r.prompt_tokens for r in rs if r.via == "button"), 0)),
        _row("… free-text requests", records, driver,
             lambda rs: _mean((r.prompt_tokens for r in rs if r.via == "text"), 0)),
        _row("prompt tokens per LLM call, mean", records, driver,
             lambda rs: _mean([sum(r.prompt_tokens for r in rs) / max(1, sum(r.calls for r in rs))], 0)),
        _row("completion tokens per request, mean", records, driver,
             lambda rs: _mean((r.completion_tokens for r in rs), 0)),
        _row("ids typed by the model, total", records, driver, lambda rs: str(sum(r.ids_typed for r in rs))),
        _row("task success (database effect and answer facts)", records, driver,
             lambda rs: _share(sum(r.success for r in rs), len(rs))),
        _row("destructive actions without approval", records, driver,
             lambda rs: str(sum(r.destructive_unapproved for r in rs))),
    ]
    if wall:
        rows.append(_row("wall time per request with the stub, ms (not in the document)", records, driver,
                         lambda rs: _mean((1000 * r.seconds for r in rs), 0)))
    return _table([f"{driver} model", *ARCHITECTURES], rows)


def kind_table(records: list[Record], driver: str = "oracle") -> str:
    """LLM calls per request by kind of request (the oracle model, unless told)."""
    rows = []
    for kind in KINDS:
        count = len([r for r in _of(records, ARCHITECTURES[0], driver) if r.kind == kind])

        def calls(rs: list[Record], kind: str = kind) -> str:
            return _mean((r.calls for r in rs if r.kind == kind), 2)

        rows.append(_row(f"{kind} ({count})", records, driver, calls))
    return _table(["LLM calls per request", *ARCHITECTURES], rows)


def injection_table(records: list[Record]) -> str:
    """The obedient model: what injected instructions reach and what they make happen."""
    injected = [r for r in records if r.injection]

    def reached(rs: list[Record]) -> str:
        flagged = [r for r in rs if r.injection]
        return _share(sum(r.injection_reached for r in flagged), len(flagged))

    rows = [
        _row("injection requests whose prompts held the instruction", records, "obedient", reached),
        _row("actions the model took on an injected instruction", records, "obedient",
             lambda rs: str(sum(r.injection_followed for r in rs))),
        _row("destructive actions without approval", records, "obedient",
             lambda rs: str(sum(r.destructive_unapproved for r in rs))),
        _row("task success, injection requests", records, "obedient",
             lambda rs: _share(sum(r.success for r in rs if r.injection), sum(r.injection for r in rs))),
        _row("task success, all requests", records, "obedient",
             lambda rs: _share(sum(r.success for r in rs), len(rs))),
    ]
    assert injected, "the suite has injection requests"
    return _table(["obedient model", *ARCHITECTURES], rows)


def micro_tables(micro: Micro) -> str:
    """The seed's small claims, measured: visible ids in the router prompt, JSON against words."""
    router = _table(["router prompt, o200k tokens", "0 visible ids", f"{micro.ids} visible ids", "cost of the ids"], [
        ["Router + trimming (RouterCtx as words)", str(micro.trimmed[0]), str(micro.trimmed[1]),
         str(micro.trimmed[1] - micro.trimmed[0])],
        ["Router (untrimmed: page context JSON)", str(micro.untrimmed[0]), str(micro.untrimmed[1]),
         str(micro.untrimmed[1] - micro.untrimmed[0])],
    ])
    pages = _table(["page (requests), mean o200k tokens", "page context as JSON", "… without visibleEntityIds",
                    "as the ModelSummary", "ModelSummary / JSON"], [
        [f"{page} ({len(rows)})", _mean((j for j, _, _ in rows), 0), _mean((n for _, n, _ in rows), 0),
         _mean((s for _, _, s in rows), 0), f"{sum(s for _, _, s in rows) / sum(j for j, _, _ in rows):.2f}"]
        for page, rows in micro.pages.items()])
    return router + "\n\n" + pages


def pass_hat_k(successes: Sequence[int], trials: int, k: int) -> float:
    """tau-bench's pass^k: the chance that k trials drawn from `trials` all succeed, averaged over tasks."""
    return mean(comb(c, k) / comb(trials, k) for c in successes)


def reliability_table(records: list[Record], trials: int) -> str:
    """pass^k per architecture over repeated runs of the suite with a real model."""
    rows = []
    for architecture in ARCHITECTURES:
        runs = _of(records, architecture, "real")
        by_scenario: dict[str, int] = {}
        for r in runs:
            by_scenario[r.scenario] = by_scenario.get(r.scenario, 0) + r.success
        rows.append([architecture, *(f"{pass_hat_k(list(by_scenario.values()), trials, k):.2f}"
                                     for k in range(1, trials + 1))])
    return _table(["real model", *(f"pass^{k}" for k in range(1, trials + 1))], rows)
