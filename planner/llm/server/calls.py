"""Summarises the model calls in server.mjs's log as Markdown: count, then the mean and the
95th percentile of prompt tokens, prompt tokens evaluated anew (not reused from the previous
request), answer tokens and seconds.

    python3 calls.py LOG
"""
import re
import sys

LINE = re.compile(r"prompt (\d+) tokens \((\d+) cached\), answer (\d+) tokens, ([\d.]+) s, (\w+)")


def main():
    rows = []
    with open(sys.argv[1]) as f:
        for line in f:
            m = LINE.search(line)
            if m:
                prompt, cached, answer, secs, stop = m.groups()
                rows.append((int(prompt), int(prompt) - int(cached), int(answer), float(secs), stop))
    if not rows:
        sys.exit(f"{sys.argv[1]}: no model calls logged")
    print(f"{len(rows)} model calls; {sum(r[4] == 'length' for r in rows)} cut at max_tokens\n")
    print("| | prompt tokens | evaluated anew | answer tokens | seconds |\n|---|---:|---:|---:|---:|")
    for name, pick in (("mean", lambda xs: sum(xs) / len(xs)), ("p95", lambda xs: sorted(xs)[min(len(xs) - 1, int(0.95 * len(xs)))])):
        cols = [pick([r[i] for r in rows]) for i in range(4)]
        print(f"| {name} | {cols[0]:.0f} | {cols[1]:.0f} | {cols[2]:.0f} | {cols[3]:.1f} |")


if __name__ == "__main__":
    main()
