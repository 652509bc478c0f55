#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# The release as software centres show it: the metainfo's newest release and NEWS's first entry
# are this version, each with notes; the screenshots are the files in data/screenshots at the
# size the metainfo gives, 16:9, at addresses pinned to the version's tag; captions within 50
# characters in every language; display_length says which side it means; brand colours for
# both schemes; an OARS rating. TAP output.
#
# Usage: test-release.py SOURCE_ROOT METAINFO VERSION   (METAINFO: the built, merged file)

import os
import re
import struct
import sys
import xml.etree.ElementTree as ET

src, metainfo_path, version = sys.argv[1:4]
XML_LANG = '{http://www.w3.org/XML/1998/namespace}lang'
results = []


def check(name, ok, why=''):
    results.append((name, ok, why))


def png_size(path):
    with open(path, 'rb') as f:
        head = f.read(24)
    if head[:8] != b'\x89PNG\r\n\x1a\n':
        return None
    return struct.unpack('>II', head[16:24])


root = ET.parse(metainfo_path).getroot()

releases = root.findall('releases/release')
newest = releases[0] if releases else None
check(f'the newest release in the metainfo is {version}',
      newest is not None and newest.get('version') == version,
      repr(newest.get('version') if newest is not None else None))
check('the newest release has a date and notes',
      newest is not None and re.fullmatch(r'\d{4}-\d\d-\d\d', newest.get('date', '')) is not None and
      newest.find('description') is not None and len(list(newest.find('description'))) > 0)

news = open(os.path.join(src, 'NEWS'), encoding='utf-8').read()
first = re.search(r'^Version (\S+) \((\d{4}-\d\d-\d\d)\)$', news, re.M)
check(f'NEWS begins with version {version}', first is not None and first.group(1) == version,
      first.group(0) if first else 'no "Version X (DATE)" line')
check('NEWS and the metainfo give the same date',
      first is not None and newest is not None and first.group(2) == newest.get('date'),
      f'{first.group(2) if first else None} and {newest.get("date") if newest is not None else None}')

shots = root.findall('screenshots/screenshot')
check('two screenshots or more, one the default',
      len(shots) >= 2 and sum(s.get('type') == 'default' for s in shots) == 1)
prefix = f'https://raw.githubusercontent.com/vramcalc/vram-calculator/v{version}/'
for shot in shots:
    image = shot.find('image')
    url = image.text.strip() if image is not None and image.text else ''
    name = url.rsplit('/', 1)[-1]
    check(f'{name}: address pinned to the tag v{version}', url.startswith(prefix), url)
    local = os.path.join(src, url[len(prefix):]) if url.startswith(prefix) else ''
    size = png_size(local) if local and os.path.isfile(local) else None
    check(f'{name}: the file is in the source tree', size is not None, local)
    if size:
        w, h = size
        check(f'{name}: {w} × {h} is the size the metainfo gives',
              image.get('width') == str(w) and image.get('height') == str(h),
              f'metainfo says {image.get("width")} × {image.get("height")}')
        check(f'{name}: 16:9', w * 9 == h * 16, f'{w} × {h}')
    for caption in shot.findall('caption'):
        lang = caption.get(XML_LANG, 'C')
        text = caption.text or ''
        check(f'{name}: caption ({lang}) within 50 characters', 0 < len(text) <= 50,
              f'{len(text)}: {text}')

for kind in ('requires', 'recommends'):
    for length in root.findall(f'{kind}/display_length'):
        check(f'{kind} display_length {length.text} names its side',
              length.get('side') in ('shortest', 'longest'), repr(length.get('side')))

colors = {c.get('scheme_preference'): c.text for c in root.findall('branding/color')
          if c.get('type') == 'primary'}
check('brand colours for the light and dark schemes',
      all(re.fullmatch(r'#[0-9a-fA-F]{6}', colors.get(s) or '') for s in ('light', 'dark')),
      repr(colors))
rating = root.find('content_rating')
check('an OARS content rating', rating is not None and rating.get('type', '').startswith('oars-'))

print(f'1..{len(results)}')
for i, (name, ok, why) in enumerate(results, 1):
    print(f'ok {i} - {name}' if ok else f'not ok {i} - {name}  # {why}')
