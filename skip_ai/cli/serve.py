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
        "--records",
        metavar="OUT",
        help="a tournament's output folder (or its records/) whose games the page can replay",
    )
    srv.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from skip_ai.serve.server import make_server

    if args.port > 65535:
        raise ValueError(f"--port {args.port}: ports go up to 65535")
    if args.records and not Path(args.records).exists():
        raise ValueError(f"--records {args.records}: no such folder")
    try:
        server = make_server(args.host, args.port, args.records)
    except OSError as e:
        raise ValueError(
            f"cannot listen on {args.host}:{args.port} ({e.strerror}); choose another --port"
        ) from None
    print(f"skip-ai serve: the table is at {server.url}  (Ctrl-C stops)", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        print("\nskip-ai serve: stopped")
    finally:
        server.server_close()
    return 0
