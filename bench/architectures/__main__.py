"""Run the five architectures on the suite, print the tables, write docs/EVOLUTION.md (or --check it).

    python -m bench.architectures                 # scripted models over the stub; writes the documents
    python -m bench.architectures --check         # the same run; fails if the documents are stale
    python -m bench.architectures --model real --repeats 3   # OPENAI_API_KEY's model; prints pass^k
"""
from __future__ import annotations

import argparse
import json
import logging
import os
import sys
import tempfile
import time
from dataclasses import asdict
from pathlib import Path
from typing import Any

from .stub import Answer, BenchStub


def _scripted(body: dict[str, Any]) -> Answer:
    from .drivers import scripted_model  # imported once Django is set up

    return scripted_model(body)


def _audit_words() -> tuple[bool, str]:
    """What `manage.py audit_run --all` said of the runs each scenario stored: (all passed, a summary)."""
    from .run import AUDITS

    runs = sum(n for _, n, _ in AUDITS)
    failed = [(where, lines) for where, _, lines in AUDITS if lines]
    words = [f"audit_run --all after each scenario: {runs} runs audited in {len(AUDITS)} scenarios, "
             f"{len(failed)} scenarios with a failed run"]
    words += [f"  {where}: {' | '.join(lines[:6])}" for where, lines in failed[:20]]
    return not failed, "\n".join(words)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="Fail if docs/EVOLUTION.md or README.md is stale.")
    parser.add_argument("--model", choices=("scripted", "real"), default="scripted")
    parser.add_argument("--repeats", type=int, default=3, help="Runs of the suite with --model real (pass^k).")
    parser.add_argument("--json", type=Path, help="Also write every record and the small claims as JSON here.")
    args = parser.parse_args()
    if args.model == "real" and not os.environ.get("OPENAI_API_KEY"):
        print("--model real needs OPENAI_API_KEY (and OPENAI_BASE_URL for a non-OpenAI endpoint).", file=sys.stderr)
        return 2
    started = time.perf_counter()
    stub = BenchStub(_scripted).start() if args.model == "scripted" else None
    with tempfile.TemporaryDirectory(prefix="bench-architectures-") as work:
        from .environment import environment_start

        environment_start(Path(work), base_url=stub.base_url if stub else None)
        for noisy in ("httpx", "httpx2", "openai"):
            logging.getLogger(noisy).setLevel(logging.WARNING)
        from .clock import clock_pin, refs_pin
        from .dataset import dataset_seed
        from .document import document_text, documents_write, readme_block
        from .micro import micro_measure
        from .plan_execute import PlanExecute
        from .react import ReAct, ReActWithButtons
        from .report import ARCHITECTURES, cost_table, injection_table, kind_table, micro_tables, reliability_table
        from .router import router_over, router_trimmed, router_untrimmed, suite_capabilities
        from .run import suite_records
        from .suite import suite_build

        clock_pin()
        refs_pin()
        data = dataset_seed()
        suite = suite_build(data)
        drivers = ("oracle", "obedient") if stub else ("real",) * args.repeats
        makers = (ReAct, ReActWithButtons, PlanExecute, router_untrimmed, router_trimmed)
        with router_over(suite_capabilities(suite)):
            records = suite_records(makers, suite, data.alice, drivers=drivers,
                                    stub_calls=(lambda: stub.calls) if stub else None)
            micro = micro_measure(suite, data.alice, data.web.pk, data.web.name)
        if stub:
            stub.stop()
        audit = _audit_words()
    if args.json:
        args.json.write_text(json.dumps({"records": [asdict(r) | {"success": r.success} for r in records],
                                         "micro": asdict(micro)}, indent=1), encoding="utf-8")
    print(audit[1])
    if not audit[0]:
        print("The four-point audit failed runs of the suite (above).", file=sys.stderr)
        return 1
    if not stub:
        for table in (cost_table(records, wall=True, driver="real"), kind_table(records, driver="real"),
                      reliability_table(records, args.repeats)):
            print(table, end="\n\n")
        return 0
    print(f"{len(suite)} requests ({sum(s.via == 'button' for s in suite)} by quick button), "
          f"{len(ARCHITECTURES)} architectures, oracle and obedient models, {time.perf_counter() - started:.0f} s.\n"
          "The oracle makes the minimal correct choice at each call: its costs are a lower bound for the "
          "baselines.\n")
    for table in (cost_table(records, wall=True), kind_table(records), injection_table(records), micro_tables(micro)):
        print(table, end="\n\n")
    stale = documents_write(document_text(records, micro, suite), readme_block(records, micro, suite),
                            check=args.check)
    if args.check and stale:
        print(f"{', '.join(stale)} disagree with this run; run `make bench` and commit the result.", file=sys.stderr)
        return 1
    print(("Checked: " if args.check else "Wrote: ") + "docs/EVOLUTION.md and README.md's numbers"
          + (" (no change)." if not stale else "."))
    return 0


if __name__ == "__main__":
    sys.exit(main())
