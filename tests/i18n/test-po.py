#!/usr/bin/env python3
"""The translations: po/fr.po valid and complete, POTFILES.in sorted and complete, the catalog
built into the build tree, the desktop file and the metainfo merged with French.

usage: test-po.py SOURCE_ROOT BUILD_ROOT DESKTOP_TEMPLATE METAINFO_TEMPLATE
Prints TAP. Messages found in the sources but missing from fr.po are reported as a TODO: they
appear while someone adds strings, until `ninja vram-calculator-update-po` and a translation.
"""
import gettext
import os
import re
import subprocess
import sys
import tempfile

src, build, desktop, metainfo = sys.argv[1:5]
results = []


def check(name, ok, diag=None, todo=False):
    results.append((name, ok, diag, todo))


po = os.path.join(src, 'po', 'fr.po')

# msgfmt --check: formats, plural forms, header; --statistics: nothing untranslated or fuzzy
p = subprocess.run(['msgfmt', '--check', '--statistics', '-o', os.devnull, po],
                   capture_output=True, text=True, env=dict(os.environ, LC_ALL='C'))
stats = p.stderr.strip()
check('msgfmt --check accepts po/fr.po', p.returncode == 0, stats)
m = re.match(r'^(\d+) translated messages?\.$', stats)
check('po/fr.po has no untranslated and no fuzzy message', m is not None and int(m.group(1)) > 0, stats)

# the plural rule French uses: 0 and 1 singular
header = open(po, encoding='utf-8').read()
check('po/fr.po has French plural forms',
      'Plural-Forms: nplurals=2; plural=(n > 1);' in header)

# POTFILES.in: sorted, every listed file exists, every file with marked strings listed
listed = [l.strip() for l in open(os.path.join(src, 'po', 'POTFILES.in'), encoding='utf-8')
          if l.strip() and not l.startswith('#')]
check('POTFILES.in is sorted without duplicates', listed == sorted(set(listed)), '\n'.join(listed))
missing_files = [f for f in listed if not os.path.isfile(os.path.join(src, f))]
check('every file in POTFILES.in exists', not missing_files, ' '.join(missing_files))

marked_c = re.compile(r'(?<![\w])(?:N?C?_\s*\(\s*"|(?:g_dngettext|g_dpgettext2|g_dcgettext|ngettext)\s*\()')
needed = []
for top in ['src']:
    for dirpath, dirs, files in os.walk(os.path.join(src, top)):
        for f in files:
            path = os.path.join(dirpath, f)
            rel = os.path.relpath(path, src)
            text = open(path, encoding='utf-8', errors='replace').read()
            if f.endswith(('.c', '.h')) and marked_c.search(text):
                needed.append(rel)
            elif f.endswith('.ui') and 'translatable="yes"' in text:
                needed.append(rel)
for f in os.listdir(os.path.join(src, 'data')):
    if f.endswith(('.desktop.in', '.metainfo.xml.in')) or \
       (f.endswith('.gschema.xml') and 'gettext-domain' in open(os.path.join(src, 'data', f), encoding='utf-8').read()):
        needed.append(os.path.join('data', f))
unlisted = sorted(set(needed) - set(listed))
check('POTFILES.in lists every file with translatable strings', not unlisted, ' '.join(unlisted))

# the sources' messages against fr.po (xgettext with the options of meson's glib preset)
with tempfile.TemporaryDirectory() as tmp:
    pot = os.path.join(tmp, 'current.pot')
    x = subprocess.run(['xgettext', '--from-code=UTF-8', '--add-comments',
                        '--keyword=_', '--keyword=N_', '--keyword=C_:1c,2', '--keyword=NC_:1c,2',
                        '--keyword=g_dcgettext:2', '--keyword=g_dngettext:2,3',
                        '--keyword=g_dpgettext2:2c,3',
                        '--flag=N_:1:pass-c-format', '--flag=C_:2:pass-c-format',
                        '--flag=NC_:2:pass-c-format', '--flag=g_dngettext:2:pass-c-format',
                        '--flag=g_strdup_printf:1:c-format', '--flag=g_string_printf:2:c-format',
                        '--flag=g_string_append_printf:2:c-format', '--flag=g_error_new:3:c-format',
                        '--flag=g_set_error:4:c-format',
                        '-D', src, '-f', os.path.join(src, 'po', 'POTFILES.in'), '-o', pot],
                       capture_output=True, text=True)
    check('xgettext reads every file in POTFILES.in without a warning',
          x.returncode == 0 and 'warning' not in x.stderr, x.stderr.strip())
    if x.returncode == 0:
        c = subprocess.run(['msgcmp', po, pot], capture_output=True, text=True,
                           env=dict(os.environ, LC_ALL='C'))
        absent = [l for l in c.stderr.splitlines() if 'this message is' in l]
        check('po/fr.po translates every message of the sources', c.returncode == 0,
              '%d messages of the sources are not translated:\n%s' % (len(absent), c.stderr.strip()))

# the catalog the build made, where VC_LOCALEDIR points
mo = os.path.join(build, 'po', 'fr', 'LC_MESSAGES', 'vram-calculator.mo')
check('the French catalog is built', os.path.isfile(mo), mo)
if os.path.isfile(mo):
    t = gettext.translation('vram-calculator', os.path.join(build, 'po'), ['fr'])
    check('the catalog translates a scenario', t.gettext('Inference (16-bit)') == 'Inférence (16\u00a0bits)',
          t.gettext('Inference (16-bit)'))
    check('the catalog has French plurals for GPU counts',
          t.ngettext('needs %.0f GPU', 'needs %.0f GPUs', 3) == 'nécessite %.0f GPU' and
          t.ngettext('%.0f GPU', '%.0f GPUs', 1) == '%.0f GPU')

# desktop file and metainfo merged with fr.po the way the build merges them (merged here: a
# build tree made before fr.po changed keeps its older merged files)
with tempfile.TemporaryDirectory() as tmp:
    merged = []
    for kind, template in (('--desktop', desktop), ('--xml', metainfo)):
        out = os.path.join(tmp, os.path.basename(template)[:-3])
        p = subprocess.run(['msgfmt', kind, '--template', template, '-d', os.path.join(src, 'po'),
                            '-o', out], capture_output=True, text=True)
        check('msgfmt %s merges po/ into %s' % (kind, os.path.basename(template)),
              p.returncode == 0, p.stderr.strip())
        merged.append(open(out, encoding='utf-8').read() if p.returncode == 0 else '')
d, mi = merged
check('the desktop file has French name, comment and keywords',
      'GenericName[fr]=Calculateur de mémoire GPU' in d and 'Comment[fr]=' in d and
      re.search(r'^Keywords\[fr\]=.*;$', d, re.M) is not None, d)
check('the metainfo has a French summary and description',
      re.search(r'<summary xml:lang="fr">[^<]+</summary>', mi) is not None and
      re.search(r'<p xml:lang="fr">[^<]+</p>', mi) is not None)

print('1..%d' % len(results))
for i, (name, ok, diag, todo) in enumerate(results, 1):
    print('%s %d - %s%s' % ('ok' if ok else 'not ok', i, name, ' # TODO strings still moving' if todo and not ok else ''))
    if diag and not ok:
        for line in str(diag).splitlines():
            print('# ' + line)
sys.exit(0)
