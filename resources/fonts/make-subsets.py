#!/usr/bin/python3
# Builds the script-coverage font subsets in this folder from Debian's Noto fonts (run on a dev
# machine: apt-get install fonts-noto-core fonts-noto-cjk fonts-noto-color-emoji fonttools;
# then `/usr/bin/python3 resources/fonts/make-subsets.py`). The subsets are committed; this
# script only says how they were made. What each covers is in docs/engine.md ("Fonts").
#
# Each subset leaves out ASCII and Latin-1 (DejaVu draws those), so a font placed before DejaVu
# in a caption's font list only ever draws its own script.
import subprocess
from fontTools.ttLib import TTCollection, TTFont

HERE = __file__.rsplit('/', 1)[0] or '.'
NOTO = '/usr/share/fonts/truetype/noto'
CJK = '/usr/share/fonts/opentype/noto'


def subset(src, out, unicodes, extra=()):
    subprocess.run(['pyftsubset', src, '--unicodes=' + ','.join('%04X' % u for u in sorted(unicodes)),
                    '--output-file=' + out, '--name-IDs=*', '--name-legacy', *extra], check=True)


def ranges(*rs):
    out = set()
    for a, b in rs:
        out.update(range(a, b + 1))
    return out


# Arabic (Arabic, Supplement, Extended-A, presentation forms A and B) and Hebrew (with its
# presentation forms); shaping and right-to-left layout are the text shaper's (HarfBuzz in Skia
# and in the browser), the fonts carry the joining forms and marks.
ARABIC = ranges((0x0600, 0x06FF), (0x0750, 0x077F), (0x08A0, 0x08FF), (0xFB50, 0xFDFF), (0xFE70, 0xFEFF), (0x200C, 0x200F))
HEBREW = ranges((0x0590, 0x05FF), (0xFB1D, 0xFB4F), (0x200C, 0x200F))
for weight in ('Regular', 'Bold'):
    subset(f'{NOTO}/NotoSansArabic-{weight}.ttf', f'{HERE}/NotoSansArabic-{weight}.ttf', ARABIC, ['--layout-features=*'])
    subset(f'{NOTO}/NotoSansHebrew-{weight}.ttf', f'{HERE}/NotoSansHebrew-{weight}.ttf', HEBREW, ['--layout-features=*'])

# CJK: the commonly used characters, taken from the national standards' first levels (Python's
# own codecs list them, no download): GB 2312 level 1 (3,755 hanzi), JIS X 0208 level 1
# (2,965 kanji), KS X 1001 (2,350 hangul syllables), plus kana, CJK punctuation, fullwidth forms.
# The Simplified Chinese face of Noto Sans CJK, one weight (Bold: most caption styles are bold).
def codec_range(enc, hi, lo):
    chars = set()
    for a in hi:
        for b in lo:
            try:
                chars.update(ord(c) for c in bytes([a, b]).decode(enc))
            except UnicodeDecodeError:
                pass
    return chars


cjk = set()
cjk |= codec_range('gb2312', range(0xB0, 0xD8), range(0xA1, 0xFF))
cjk |= codec_range('euc_jp', range(0xB0, 0xD0), range(0xA1, 0xFF))
cjk |= codec_range('euc_kr', range(0xB0, 0xC9), range(0xA1, 0xFF))
cjk |= ranges((0x3000, 0x303F), (0x3040, 0x309F), (0x30A0, 0x30FF), (0x31F0, 0x31FF), (0xFF00, 0xFFEF), (0x3130, 0x318F))
ttc = TTCollection(f'{CJK}/NotoSansCJK-Bold.ttc')
sc = next(f for f in ttc.fonts if f['name'].getDebugName(1) == 'Noto Sans CJK SC')
sc.save('/tmp/NotoSansCJKsc-Bold.otf')
subset('/tmp/NotoSansCJKsc-Bold.otf', f'{HERE}/NotoSansCJKsc-Bold-subset.otf', cjk, ['--layout-features=*'])

# Emoji: every single-code-point emoji of Noto Color Emoji (colour bitmaps, CBDT), without the
# ligature table: a skin-tone, flag or ZWJ sequence is drawn as its parts (still in colour).
emoji = TTFont(f'{NOTO}/NotoColorEmoji.ttf').getBestCmap()
subset(f'{NOTO}/NotoColorEmoji.ttf', f'{HERE}/NotoColorEmoji-single.ttf', [u for u in emoji if u >= 0x2000],
       ['--layout-features=', '--no-layout-closure'])
