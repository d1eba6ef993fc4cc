#!/usr/bin/env python3
"""Turns sponge_bench's Google Benchmark JSON into tables and a throughput chart.

    report.py RESULTS.json [--svg OUT.svg] [--markdown]
    report.py --cpu-slug          # prints the slug of /proc/cpuinfo's "model name"

Benchmark names are <family>/<implementation>[/<bytes>] (see bench/sponge_bench.cpp).
Each figure is the median over repetitions: the "median" aggregate when the run had
--benchmark_repetitions, else the median of the plain runs. Times are CPU time per
message; GB/s is 10^9 bytes per second. "1.23x" in a column means that column took 1.23
times as long as ours (sponge, the public API on the dispatcher's kernel): ours is 1.23x
faster. The Ascon families (ascon-*) divide by the portable Ascon kernel instead
(kernel:portable, the reference every generated Ascon kernel is measured against): "0.50x"
in a kernel's column means it takes half portable's time. Standard library only.
"""

import argparse
import json
import math
import platform
import re
import statistics
import sys
from collections import defaultdict

OURS = "sponge"
ASCON_REFERENCE = "kernel:portable"
ASCON_PERMUTATIONS = ("ascon-p12", "ascon-p8", "ascon-p6")
PEERS = ["openssl-ctx", "openssl-evpdigest", "cryptopp"]
LABELS = {
    "openssl-ctx": "OpenSSL ctx",
    "openssl-evpdigest": "OpenSSL EVP_Digest",
    "cryptopp": "Crypto++",
    "shake128": "SHAKE128 (same kernel)",
    "openssl-evp-mac": "OpenSSL EVP_MAC",
}
TIME_UNIT_NS = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}


def cpu_slug(model=None):
    """'Intel(R) Xeon(R) Processor @ 2.60GHz' -> 'intel-xeon-processor-2-60ghz'."""
    if model is None:
        model = ""
        try:
            with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as cpuinfo:
                for line in cpuinfo:
                    if line.startswith("model name"):
                        model = line.split(":", 1)[1].strip()
                        break
        except OSError:
            pass
        if not model:
            model = platform.machine() + " unknown"
    text = re.sub(r"\((r|tm|c)\)", " ", model.lower())
    return re.sub(r"[^a-z0-9]+", "-", text).strip("-") or "unknown"


def size_label(size):
    if size >= 1 << 20 and size % (1 << 20) == 0:
        return f"{size >> 20} MiB"
    if size >= 1 << 10 and size % (1 << 10) == 0:
        return f"{size >> 10} KiB"
    return str(size)


def load(path):
    """Returns ({(family, impl, size): {"ns": .., "ticks": ..}}, context)."""
    with open(path, encoding="utf-8") as f:
        document = json.load(f)
    medians = {}
    plain = defaultdict(list)
    for entry in document.get("benchmarks", []):
        if entry.get("error_occurred"):
            continue
        name = entry.get("run_name", entry["name"])
        fields = {
            "ns": entry["cpu_time"] * TIME_UNIT_NS[entry.get("time_unit", "ns")],
            "ticks": entry.get("ticks"),
        }
        if entry.get("run_type") == "aggregate":
            if entry.get("aggregate_name") == "median":
                medians[name] = fields
        else:
            plain[name].append(fields)
    for name, runs in plain.items():
        if name not in medians:
            ticks = [run["ticks"] for run in runs if run["ticks"] is not None]
            medians[name] = {
                "ns": statistics.median(run["ns"] for run in runs),
                "ticks": statistics.median(ticks) if ticks else None,
            }
    results = {}
    for name, fields in medians.items():
        parts = name.split("/")
        if len(parts) == 3 and parts[2].isdigit():
            results[(parts[0], parts[1], int(parts[2]))] = fields
        elif len(parts) == 2:
            results[(parts[0], parts[1], None)] = fields
    return results, document.get("context", {})


def is_ascon(family):
    return family.startswith("ascon-")


def reference_for(family):
    """The column every other column of `family` is divided by."""
    return ASCON_REFERENCE if is_ascon(family) else OURS


def columns_for(results, family, context):
    """Our dispatcher column, then each kernel, then the peers, as present in `family`."""
    present = {impl for (fam, impl, _) in results if fam == family}
    kernel_list = "sponge_ascon_kernels_benchmarked" if is_ascon(family) else \
        "sponge_kernels_benchmarked"
    kernels = [k.strip() for k in context.get(kernel_list, "").split(",")]
    order = [OURS] + ["kernel:" + k for k in kernels if k] + PEERS
    order += sorted(present - set(order))
    return [impl for impl in order if impl in present]


def label(impl, context, family=""):
    if impl == OURS:
        active = "sponge_active_ascon_kernel" if is_ascon(family) else "sponge_active_kernel"
        return f"ours ({context.get(active, 'dispatcher')})"
    if impl.startswith("kernel:"):
        return impl[len("kernel:"):]
    return LABELS.get(impl, impl)


def format_ns(ns):
    if ns < 100:
        return f"{ns:.1f}"
    return f"{ns:,.0f}"


def throughput_table(results, family, context, markdown=False):
    """Rows: message size; per column "<ns> <GB/s>" and, except the reference, the ratio."""
    impls = columns_for(results, family, context)
    reference = reference_for(family)
    sizes = sorted({size for (fam, _, size) in results if fam == family})
    header = ["bytes"] + [label(impl, context, family) for impl in impls]
    rows = []
    for size in sizes:
        row = [size_label(size)]
        ours = results.get((family, reference, size))
        for impl in impls:
            cell = results.get((family, impl, size))
            if cell is None:
                row.append("-")
                continue
            ns = cell["ns"]
            gbs = f"{size / ns:.3f}" if size else "-"
            ratio = None
            if impl != reference:
                ratio = f"{ns / ours['ns']:.2f}x" if ours is not None else "-"
            if markdown:
                text = f"{format_ns(ns)} ns" + (f", {gbs} GB/s" if size else "")
                text += f", {ratio}" if ratio else ""
            else:
                text = f"{format_ns(ns)}  {gbs:>5}" + (f"  {ratio:>5}" if ratio else "")
            row.append(text)
        rows.append(row)
    return header, rows


def permutation_table(results, context):
    header = ["call", "ns", "TSC ticks", "GB/s"]
    rows = []
    for family in ("permute", "absorb136"):
        for impl in columns_for(results, family, context):
            cell = results[(family, impl, None)]
            ticks = f"{cell['ticks']:.0f}" if cell["ticks"] is not None else "-"
            rate = f"{136 / cell['ns']:.3f}" if family == "absorb136" else "-"
            rows.append([f"{family} {label(impl, context)}", format_ns(cell["ns"]), ticks, rate])
    return header, rows


def ascon_permutation_table(results, context):
    """One Ascon-p[320] call per kernel: ns, TSC ticks, and time / the portable kernel's."""
    header = ["call", "ns", "TSC ticks", "vs portable"]
    rows = []
    for family in ASCON_PERMUTATIONS:
        reference = results.get((family, ASCON_REFERENCE, None))
        for impl in columns_for(results, family, context):
            cell = results[(family, impl, None)]
            ticks = f"{cell['ticks']:.0f}" if cell["ticks"] is not None else "-"
            ratio = f"{cell['ns'] / reference['ns']:.2f}x" if reference else "-"
            rows.append([f"{family} {label(impl, context, family)}", format_ns(cell["ns"]), ticks,
                         ratio])
    return header, rows


def render(header, rows, markdown):
    if markdown:
        lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
        lines += ["| " + " | ".join(row) + " |" for row in rows]
        return "\n".join(lines)
    widths = [max(len(r[i]) for r in [header] + rows) for i in range(len(header))]
    def line(row):
        cells = [row[0].ljust(widths[0])] + [c.rjust(w) for c, w in zip(row[1:], widths[1:])]
        return "  ".join(cells).rstrip()
    return "\n".join([line(header), "  ".join("-" * w for w in widths)] + [line(r) for r in rows])


def overhead_notes(results, context):
    """How much the C++ sponge path costs on top of one permutation, for tiny messages."""
    active = context.get("sponge_active_kernel")
    permute = results.get(("permute", "kernel:" + str(active), None))
    if permute is None:
        return []
    notes = []
    for size in (0, 32):
        for impl in (OURS, "kernel:" + active):
            cell = results.get(("oneshot", impl, size))
            if cell is None:
                continue
            extra = cell["ns"] - permute["ns"]
            notes.append(
                f"oneshot {size:>2} B, {label(impl, context)}: {format_ns(cell['ns'])} ns = "
                f"one {active} permutation ({format_ns(permute['ns'])} ns) + "
                f"{extra:.1f} ns ({100 * extra / permute['ns']:.0f}%)")
    return notes


# --------------------------------------------------------------------------------------
# SVG chart: one-shot throughput (GB/s) against message size (log scale), by hand.
# --------------------------------------------------------------------------------------
COLORS = ["#1b6ca8", "#2ca02c", "#17becf", "#d62728", "#ff7f0e", "#9467bd", "#8c564b",
          "#7f7f7f"]


def escape(text):
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def svg_chart(results, context, family="oneshot"):
    impls = columns_for(results, family, context)
    sizes = sorted({s for (fam, _, s) in results if fam == family and s})
    if not sizes or not impls:
        return None
    series = []
    for impl in impls:
        points = [(s, s / results[(family, impl, s)]["ns"]) for s in sizes
                  if (family, impl, s) in results]
        series.append((label(impl, context), points))
    top = max(gbs for _, points in series for _, gbs in points)
    step = next(v for v in (0.05, 0.1, 0.2, 0.25, 0.5, 1, 2, 2.5, 5, 10, 20, 50)
                if top / v <= 8)
    y_max = step * math.ceil(top * 1.05 / step)

    width, height = 900, 520
    left, right, top_margin, bottom = 70, 230, 50, 60
    plot_w, plot_h = width - left - right, height - top_margin - bottom
    lo, hi = math.log2(sizes[0]), math.log2(sizes[-1])

    def x(size):
        return left + (math.log2(size) - lo) / ((hi - lo) or 1) * plot_w

    def y(gbs):
        return top_margin + plot_h - gbs / y_max * plot_h

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12">',
           f'<rect width="{width}" height="{height}" fill="white"/>']
    title = (f"Keccak-256 one-shot throughput, {context.get('cpu_model', 'unknown CPU')} "
             f"(OpenSSL: SHA3-256)")
    out.append(f'<text x="{left}" y="28" font-size="15" font-weight="bold">{escape(title)}</text>')
    tick = 0.0
    while tick <= y_max + 1e-9:
        ty = y(tick)
        out.append(f'<line x1="{left}" y1="{ty:.1f}" x2="{left + plot_w}" y2="{ty:.1f}" '
                   f'stroke="#e0e0e0"/>')
        out.append(f'<text x="{left - 8}" y="{ty + 4:.1f}" text-anchor="end">{tick:g}</text>')
        tick += step
    last_label_x = -1e9
    for size in sizes:
        tx = x(size)
        out.append(f'<line x1="{tx:.1f}" y1="{top_margin}" x2="{tx:.1f}" '
                   f'y2="{top_margin + plot_h}" stroke="#f0f0f0"/>')
        if tx - last_label_x >= 30:  # 136 sits right next to 128: label only one of them
            out.append(f'<text x="{tx:.1f}" y="{top_margin + plot_h + 18}" '
                       f'text-anchor="middle">{escape(size_label(size))}</text>')
            last_label_x = tx
    out.append(f'<rect x="{left}" y="{top_margin}" width="{plot_w}" height="{plot_h}" '
               f'fill="none" stroke="#444"/>')
    out.append(f'<text x="{left + plot_w / 2:.1f}" y="{height - 15}" text-anchor="middle">'
               f'message size (bytes, log scale)</text>')
    out.append(f'<text x="18" y="{top_margin + plot_h / 2:.1f}" text-anchor="middle" '
               f'transform="rotate(-90 18 {top_margin + plot_h / 2:.1f})">GB/s (10^9 B/s)</text>')
    for index, (name, points) in enumerate(series):
        color = COLORS[index % len(COLORS)]
        dash = ' stroke-dasharray="6 4"' if name in LABELS.values() else ""
        path = " ".join(f"{x(s):.1f},{y(g):.1f}" for s, g in points)
        out.append(f'<polyline points="{path}" fill="none" stroke="{color}" '
                   f'stroke-width="2"{dash}/>')
        for s, g in points:
            out.append(f'<circle cx="{x(s):.1f}" cy="{y(g):.1f}" r="3" fill="{color}">'
                       f'<title>{escape(name)}, {escape(size_label(s))}: {g:.3f} GB/s</title>'
                       f'</circle>')
        ly = top_margin + 10 + 22 * index
        lx = left + plot_w + 20
        out.append(f'<line x1="{lx}" y1="{ly}" x2="{lx + 26}" y2="{ly}" stroke="{color}" '
                   f'stroke-width="2"{dash}/>')
        out.append(f'<text x="{lx + 32}" y="{ly + 4}">{escape(name)}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results", nargs="?", help="sponge_bench --benchmark_out JSON file")
    parser.add_argument("--svg", help="write the one-shot throughput chart here")
    parser.add_argument("--markdown", action="store_true", help="print Markdown tables")
    parser.add_argument("--cpu-slug", action="store_true",
                        help="print the slug of this machine's CPU model name and exit")
    args = parser.parse_args()
    if args.cpu_slug:
        print(cpu_slug())
        return 0
    if not args.results:
        parser.error("the results JSON file is required")

    results, context = load(args.results)
    if not results:
        print(f"report.py: no benchmark results in {args.results}", file=sys.stderr)
        return 1
    print(f"CPU: {context.get('cpu_model', 'unknown')}; dispatcher's kernel: "
          f"{context.get('sponge_active_kernel', '?')}; kernels timed: "
          f"{context.get('sponge_kernels_benchmarked', '?')}")
    print("Cells: median CPU time per message in ns, GB/s (10^9 B/s), and that column's time "
          "/ ours (1.23x: ours is 1.23x faster).")
    print("Columns: ours = the public API on the dispatcher's kernel; <kernel> = Keccak-256 on "
          "that kernel's entries.")
    print("OpenSSL runs SHA3-256: it differs from Keccak-256 only in the padding byte "
          "(same permutation, rate 136).")
    for family, title in (("oneshot", "Keccak-256, one-shot"),
                          ("stream64", "Keccak-256, streamed in 64-byte update() calls"),
                          ("turboshake128", "TurboSHAKE128 (12 rounds) vs SHAKE128, 32-byte "
                                            "output"),
                          ("kt128", "KT128 vs SHAKE128, 32-byte output"),
                          ("kmac256", "KMAC256, 32-byte key, 64-byte output"),
                          ("ascon-hash256", "Ascon-Hash256, one-shot (ratio: time / portable "
                                            "kernel's)"),
                          ("ascon-xof128", "Ascon-XOF128, one-shot, 32-byte output (ratio: "
                                           "time / portable kernel's)"),
                          ("ascon-aead128-encrypt", "Ascon-AEAD128 encryption, no associated "
                                                    "data, with tag (ratio: time / portable "
                                                    "kernel's)")):
        if any(fam == family for (fam, _, _) in results):
            print(f"\n{title}\n")
            print(render(*throughput_table(results, family, context, args.markdown),
                         args.markdown))
    if any(fam in ("permute", "absorb136") for (fam, _, _) in results):
        print("\nOne kernel call (permute: Keccak-f[1600]; absorb136: XOR a 136-byte block, "
              "then permute)\n")
        print(render(*permutation_table(results, context), args.markdown))
    if any(fam in ASCON_PERMUTATIONS for (fam, _, _) in results):
        print(f"\nOne Ascon-p[320] call (Ascon kernels: "
              f"{context.get('sponge_ascon_kernels_benchmarked', '?')}; dispatcher's: "
              f"{context.get('sponge_active_ascon_kernel', '?')})\n")
        print(render(*ascon_permutation_table(results, context), args.markdown))
    notes = overhead_notes(results, context)
    if notes:
        print("\nSmall-message overhead over one permutation\n")
        print("\n".join(notes))
    if args.svg:
        chart = svg_chart(results, context)
        if chart:
            with open(args.svg, "w", encoding="utf-8") as f:
                f.write(chart)
            print(f"\nchart: {args.svg}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
