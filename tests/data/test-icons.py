#!/usr/bin/env python3
# Checks the application icons: each is a well-formed SVG of the size its folder says (128 px for
# the full-colour icons, 16 px for the symbolic one), and the symbolic icon is drawn with fills
# only, in one colour, so GTK can recolour it with the text colour. TAP output.
#
# Usage: test-icons.py ICONS_DIR BASE_ID

import os
import re
import sys
import xml.etree.ElementTree as ET

SVG = '{http://www.w3.org/2000/svg}'

icons_dir, base_id = sys.argv[1:3]
scalable = os.path.join(icons_dir, 'hicolor', 'scalable', 'apps')
symbolic = os.path.join(icons_dir, 'hicolor', 'symbolic', 'apps')
expected = [
    (os.path.join(scalable, base_id + '.svg'), 128, False),
    (os.path.join(scalable, base_id + '.Devel.svg'), 128, False),
    (os.path.join(symbolic, base_id + '-symbolic.svg'), 16, True),
]

results = []
for path, size, is_symbolic in expected:
    name = os.path.relpath(path, icons_dir)
    try:
        root = ET.parse(path).getroot()
    except (OSError, ET.ParseError) as e:
        results.append((f'{name} is a well-formed SVG', False, str(e)))
        continue
    results.append((f'{name} is a well-formed SVG', root.tag == SVG + 'svg', f'root is {root.tag}'))
    dims = (root.get('width'), root.get('height'), root.get('viewBox'))
    results.append((f'{name} is {size}x{size}',
                    dims == (str(size), str(size), f'0 0 {size} {size}'), f'got {dims}'))
    if is_symbolic:
        colours = set()
        strokes = []
        for el in root.iter():
            for attr in ('fill', 'stroke', 'style'):
                value = el.get(attr)
                if value is None:
                    continue
                colours.update(re.findall(r'#[0-9a-fA-F]{3,6}\b', value))
                if attr == 'stroke' and value != 'none' or attr == 'style' and 'stroke' in value:
                    strokes.append(el.tag.replace(SVG, ''))
        results.append((f'{name} uses fills of one colour only',
                        not strokes and len(colours) == 1,
                        f'strokes on {strokes}, colours {sorted(colours)}'))

print(f'1..{len(results)}')
for i, (name, ok, why) in enumerate(results, 1):
    print(f'ok {i} - {name}' if ok else f'not ok {i} - {name}  # {why}')
