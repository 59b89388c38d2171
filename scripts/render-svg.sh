#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
#
# render-svg.sh SVG PNG: renders a picture of --svg with Debian's headless
# Chromium at the picture's own size (1280 px wide), then checks the PNG
# is not blank (python3-pil: more than 1% of the pixels not white, and
# more than 4 colours).  Exit 4 when Chromium or PIL is missing.
set -u
svg=$(realpath "$1")
png=$2
chrome=$(command -v chromium || command -v chromium-browser) || {
	echo "render-svg: no chromium (apt install chromium)"
	exit 4
}
/usr/bin/python3 -c 'import PIL' 2>/dev/null || {
	echo "render-svg: no python3-pil (apt install python3-pil)"
	exit 4
}
h=$(grep -o -m1 '<svg [^>]*' "$svg" | sed -n 's/.* height="\([0-9]*\)".*/\1/p')
[ -n "$h" ] || { echo "render-svg: $svg: no height"; exit 1; }
home=$(mktemp -d)
HOME=$home timeout 120 "$chrome" --headless --no-sandbox --disable-gpu \
	--hide-scrollbars --user-data-dir="$home" --window-size=1280,"$h" \
	--screenshot="$png" "file://$svg" >"$home/log" 2>&1
rc=$?
rm -rf "$home"
[ $rc -eq 0 ] && [ -s "$png" ] || { echo "render-svg: chromium failed ($rc)"; exit 1; }
exec /usr/bin/python3 - "$png" <<'PY'
import sys
from PIL import Image
im = Image.open(sys.argv[1]).convert("RGB")
w, h = im.size
px = im.getdata()
inked = sum(1 for p in px if p != (255, 255, 255))
colours = len(set(px))
ok = inked > w * h // 100 and colours > 4
print("render-svg: %s: %dx%d, %.1f%% inked, %d colours: %s" %
      (sys.argv[1], w, h, 100.0 * inked / (w * h), colours,
       "not blank" if ok else "BLANK"))
sys.exit(0 if ok else 1)
PY
