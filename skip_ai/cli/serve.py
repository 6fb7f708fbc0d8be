"""``skip-ai serve``: the table in a browser."""

from __future__ import annotations

import argparse
from pathlib import Path

from skip_ai.cli.parsing import natural


def add_parsers(sub: argparse._SubParsersAction) -> None:
    srv = sub.add_parser(
        "serve",
        help="the table in a browser: play against the bots, watch "
        "recorded games, see why a bot moved",
    )
    srv.add_argument("--port", type=natural, default=8000, help="default 8000 (0: any free port)")
    srv.add_argument(
        "--host",
        default="127.0.0.1",
        help="the address to listen on (default 127.0.0.1: this machine only)",
    )
    srv.add_argument(
        "--allow-host",
        action="append",
        default=[],
        metavar="NAME",
        help="a host name (or address) the page may be opened by besides this machine's "
        "loopback names and --host; repeat for more (needed with --host 0.0.0.0)",
    )
    srv.add_argument(
        "--records",
        metavar="OUT",
        help="a tournament's output folder (or its records/) whose games the page can replay",
    )
    for option, what in (
        ("--model", "a model file (.npz) for learned(model=NAME) and ismcts(model=NAME)"),
        ("--weights", "a heuristic-weights file for heuristic(weights=NAME), ismcts(weights=NAME)"),
        ("--tuned", "a tuned-search file for ismcts(tuned=NAME)"),
    ):
        srv.add_argument(
            option,
            action="append",
            default=[],
            metavar="[NAME=]FILE",
            help=f"{what}, offered to the page by NAME (default: the file's stem); repeat "
            "for more. The page names no file itself",
        )
    srv.add_argument(
        "--no-warm",
        dest="warm",
        action="store_false",
        help="do not prepare every game's kernels in a background process at start (a "
        "game's first table then compiles them: up to tens of seconds the first time)",
    )
    srv.add_argument("--verbose", action="store_true", help="log every request")
    srv.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from skip_ai.serve.offer import Offer, named_files
    from skip_ai.serve.server import make_server
    from skip_ai.serve.warm import Warmer

    if args.port > 65535:
        raise ValueError(f"--port {args.port}: ports go up to 65535")
    if args.records and not Path(args.records).exists():
        raise ValueError(f"--records {args.records}: no such folder")
    offer = Offer(
        models=named_files(args.model, "model"),
        weights=named_files(args.weights, "weights"),
        tuned=named_files(args.tuned, "tuned"),
    )
    server = make_server(
        args.host,
        args.port,
        args.records,
        args.verbose,
        allow_hosts=args.allow_host,
        offer=offer,
    )
    records = server.app.records
    if records is not None and records.skipped:
        first = records.skipped[0]
        print(
            f"skip-ai serve: {len(records.skipped)} records set aside, e.g. "
            f"{first['match_id']}: {first['why']}",
            flush=True,
        )
    print(f"skip-ai serve: the table is at {server.url}  (Ctrl-C stops)", flush=True)
    if args.host in ("0.0.0.0", "::") and not args.allow_host:
        print(
            "skip-ai serve: listening on every address, but answering to this machine's "
            "loopback names only: add --allow-host NAME for each name or address others use",
            flush=True,
        )
    warmer = None
    if args.warm:
        print(
            "skip-ai serve: preparing every game's kernels in a background process (a few "
            "minutes the first time on this machine, seconds once cached); the page answers "
            "meanwhile",
            flush=True,
        )
        warmer = Warmer(lambda line: print(f"skip-ai serve: {line}", flush=True)).start()
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        print("\nskip-ai serve: stopped")
    finally:
        if warmer is not None:
            warmer.stop()
        server.server_close()
    return 0
