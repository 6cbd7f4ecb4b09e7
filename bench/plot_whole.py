#!/usr/bin/python3
"""Draws the speed-up over sequential C++ of each whole program from the JSON
written by `arrc_bench_whole --json FILE` (bench/whole): per program, arrc
with the data on the device, arrc including the transfers, and OpenMP C++, all
as sequential C++ time / their time, on a log scale. One panel per JSON file
(e.g. the PoCL run and the H100 run); --merge draws the rows of all files in
one panel (one device's run split over several calls).

  /usr/bin/python3 bench/plot_whole.py pocl.json h100.json -o docs/whole-programs.png

Needs matplotlib: Debian's python3-matplotlib, for Debian's /usr/bin/python3.
"""
import argparse
import json
import sys

try:
    import matplotlib
except ImportError:
    sys.exit(f"plot_whole.py: {sys.executable} has no matplotlib "
             "(apt-get install python3-matplotlib, then run /usr/bin/python3)")

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

SERIES = [  # (key in the row, legend, colour)
    ("device", "arrc, data on the device", "#1f77b4"),
    ("transfers", "arrc incl. transfers", "#aec7e8"),
    ("omp", "OpenMP C++ (all host threads)", "#ff7f0e"),
]


def speedups(row):
    seq = row.get("seq")
    out = {}
    for key, _, _ in SERIES:
        t = row.get(key)
        out[key] = seq["median_ms"] / t["median_ms"] if seq and t and t["median_ms"] > 0 else None
    return out


def panel(ax, data, title):
    rows = data["rows"]
    labels = [f'{r["program"]}\n{r["size"]}' + ("" if r["check"] == "ok" else "\n(FAILED)") for r in rows]
    width = 0.8 / len(SERIES)
    values = [speedups(r) for r in rows]
    for s, (key, legend, colour) in enumerate(SERIES):
        xs = [i + (s - (len(SERIES) - 1) / 2) * width for i in range(len(rows))]
        ys = [v[key] for v in values]
        bars = ax.bar([x for x, y in zip(xs, ys) if y], [y for y in ys if y], width, label=legend, color=colour)
        for bar in bars:
            y = bar.get_height()
            ax.annotate(f"{y:.2g}", (bar.get_x() + bar.get_width() / 2, y), ha="center",
                        va="bottom", fontsize=6, rotation=90, xytext=(0, 2), textcoords="offset points")
    ax.axhline(1.0, color="black", linewidth=0.8)
    ax.set_yscale("log")
    ax.set_ylabel("speed-up over sequential C++")
    ax.set_xticks(range(len(rows)))
    ax.set_xticklabels(labels, fontsize=7, rotation=30, ha="right")
    ax.set_title(title, fontsize=9)
    ax.grid(axis="y", which="major", linewidth=0.3)
    lo, hi = ax.get_ylim()
    ax.set_ylim(lo, hi * 3)  # room for the value labels
    ax.legend(fontsize=7, loc="upper right", ncol=3)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("json", nargs="+", help="output of arrc_bench_whole --json")
    ap.add_argument("-o", "--output", default="whole-programs.png", help="PNG to write")
    ap.add_argument("--title", action="append", default=[],
                    help="panel title (once per JSON file; default: device, host, scale)")
    ap.add_argument("--merge", action="store_true", help="one panel with the rows of every file")
    args = ap.parse_args()
    files = []
    for i, path in enumerate(args.json):
        with open(path) as f:
            data = json.load(f)
        title = args.title[i] if i < len(args.title) else (
            f'{data["device"]}; host {data["host"]}, {data["omp_threads"]} OpenMP threads; '
            f'scale {data["scale"]}' +
            (f', load average {data["load_average"][0]}' if "load_average" in data else ""))
        files.append((data, title))
    if args.merge and len(files) > 1:
        merged = dict(files[0][0])
        merged["rows"] = [row for data, _ in files for row in data["rows"]]
        files = [(merged, files[0][1])]
    fig, axes = plt.subplots(len(files), 1, figsize=(11, 4.6 * len(files)), squeeze=False)
    for ax, (data, title) in zip(axes[:, 0], files):
        panel(ax, data, title)
    fig.tight_layout()
    fig.savefig(args.output, dpi=130)
    print(f"wrote {args.output}", file=sys.stderr)


if __name__ == "__main__":
    main()
