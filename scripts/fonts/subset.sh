#!/usr/bin/env bash
# Regenerates the subset fonts embedded by ui/snapshot/raster:
#
#   ui/snapshot/raster/fonts/NotoSansKR-Regular-subset.ttf   (weight 400)
#   ui/snapshot/raster/fonts/NotoSansKR-SemiBold-subset.ttf  (weight 600)
#   ui/snapshot/raster/fonts/OFL.txt                         (the fonts' licence)
#
# Source: Noto Sans KR (SIL Open Font License 1.1) as shipped, as static
# TrueType (glyf) instances, in the npm package @expo-google-fonts/noto-sans-kr.
# npm is used only as a download channel; nothing is installed into the repo.
#
# Needs: npm, and fontTools for /usr/bin/python3 (Debian: python3-fonttools).
# The bytes written depend on the fontTools version; the committed files were
# made with Debian bookworm's python3-fonttools 4.38.0.
#
# Usage: scripts/fonts/subset.sh   (from anywhere; writes into the repo)
set -euo pipefail

PKG='@expo-google-fonts/noto-sans-kr'
PKG_VERSION='0.4.3'
# sha256 of the npm tarball of that version, so a changed upload is noticed.
PKG_SHA256='7614af529705ea48e8b76cb3b056b92db66b7625ef3fc97ce76366063df94d3f'

PYTHON="${PYTHON:-/usr/bin/python3}"
EXPECTED_FONTTOOLS='4.38.0'

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
OUT="$ROOT/ui/snapshot/raster/fonts"

if ! "$PYTHON" -c 'import fontTools' 2>/dev/null; then
	if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
		apt-get install -y python3-fonttools >/dev/null
	else
		echo "subset.sh: fontTools missing for $PYTHON; install python3-fonttools" >&2
		exit 1
	fi
fi
FT_VERSION="$("$PYTHON" -c 'import fontTools; print(fontTools.version)')"
if [ "$FT_VERSION" != "$EXPECTED_FONTTOOLS" ]; then
	echo "subset.sh: warning: fontTools $FT_VERSION, committed files were made with $EXPECTED_FONTTOOLS; output bytes may differ" >&2
fi

WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT

# 1. Fetch the pinned package tarball and check it.
(cd "$WORK" && npm pack --silent "$PKG@$PKG_VERSION" >/dev/null)
TGZ="$WORK/expo-google-fonts-noto-sans-kr-$PKG_VERSION.tgz"
echo "$PKG_SHA256  $TGZ" | sha256sum -c --quiet -
tar -xzf "$TGZ" -C "$WORK"
SRC="$WORK/package"

# 2. The code points to keep, one U+XXXX per line.
"$PYTHON" - >"$WORK/unicodes.txt" <<'EOF'
ranges = [
    # Printable ASCII: the diagram's English labels, numbers, punctuation.
    (0x0020, 0x007E),
    # Latin-1 Supplement (NBSP, ©, °, ×, accented letters, U+00B7 middle dot
    # used as a separator in labels).
    (0x00A0, 0x00FF),
    # General Punctuation: hyphens and dashes (– —), quotes, bullets (•),
    # two-dot leader and ellipsis (… for truncated labels).
    (0x2010, 0x2027),
    # Per mille, primes, single angle quotes.
    (0x2030, 0x203A),
    # Arrows ← ↑ → ↓ for flow/direction labels.
    (0x2190, 0x2193),
    # Small and normal triangles (▴ ▸ ▾ ▶ ▼ ...) used as markers. Noto Sans KR
    # has only some of them (not ▸ ▾); the renderer draws the missing ones
    # itself, like ✕ below.
    (0x25B4, 0x25BE),
    # Heavy multiplication x (✕, close marker). Not in Noto Sans KR; listed
    # so that a future font that has it keeps it.
    (0x2715, 0x2715),
    # Hangul Compatibility Jamo (ㄱ ㄴ ... ㅏ ㅓ ...), for lone jamo in labels.
    (0x3131, 0x318E),
]
cps = set()
for lo, hi in ranges:
    cps.update(range(lo, hi + 1))
# The diagram's Korean labels: the 2,350 precomposed Hangul syllables of
# KS X 1001 (EUC-KR rows 0xB0-0xC8), the common Hangul set that covers
# ordinary Korean text, instead of all 11,172 syllables.
for lead in range(0xB0, 0xC9):
    for trail in range(0xA1, 0xFF):
        try:
            s = bytes([lead, trail]).decode("euc-kr")
        except UnicodeDecodeError:
            continue
        if len(s) == 1 and 0xAC00 <= ord(s) <= 0xD7A3:
            cps.add(ord(s))
for cp in sorted(cps):
    print("U+%04X" % cp)
EOF

# 3. Subset. Code points the font lacks are skipped silently.
#   --no-hinting              the renderer rasterises without hinting
#   --layout-features=kern    keep only pair kerning (GPOS kern); no shaping
#   --drop-tables+=...        no vertical metrics or STAT; horizontal text only
#   --name-IDs                family/style/version/PostScript names plus the
#                             licence description and URL (IDs 13, 14)
#   --no-recalc-timestamp     keep head.modified so the output is reproducible
# The sources are TrueType (glyf), so --desubroutinize (CFF only) is not needed.
mkdir -p "$OUT"
subset() { # <source ttf> <output ttf>
	"$PYTHON" -m fontTools.subset "$1" \
		--unicodes-file="$WORK/unicodes.txt" \
		--output-file="$2" \
		--no-hinting \
		--layout-features=kern \
		--drop-tables+=vhea,vmtx,STAT \
		--name-IDs=0,1,2,3,4,5,6,13,14 \
		--no-recalc-timestamp
}
subset "$SRC/400Regular/NotoSansKR_400Regular.ttf" "$OUT/NotoSansKR-Regular-subset.ttf"
subset "$SRC/600SemiBold/NotoSansKR_600SemiBold.ttf" "$OUT/NotoSansKR-SemiBold-subset.ttf"

# 4. The fonts' licence (Adobe/Google copyright line + SIL OFL 1.1 text).
cp "$SRC/LICENSE_FONT" "$OUT/OFL.txt"

ls -l "$OUT"
