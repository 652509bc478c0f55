#!/usr/bin/env python3
# Checks a Flatpak manifest: valid JSON, the application id, the GNOME runtime, the installed
# command, only the permissions the application needs, and one meson module, built for the
# release from the git tag of VERSION (what Flathub's linter accepts: an https address, a tag,
# no branch, a full commit when there is one), for the development id from this source tree.
# TAP output.
#
# Usage: test-flatpak-manifest.py MANIFEST APPLICATION_ID COMMAND SOURCE_ROOT VERSION

import json
import os
import sys

EXPECTED_FINISH_ARGS = ['--share=ipc', '--socket=fallback-x11', '--socket=wayland', '--device=dri',
                        # the Hugging Face Hub, when the user asks for a model by name
                        '--share=network',
                        # the models on this computer, read only
                        '--filesystem=~/.ollama/models:ro', '--filesystem=~/.lmstudio/models:ro',
                        '--filesystem=~/.cache/lm-studio/models:ro', '--filesystem=~/.cache/huggingface:ro']

manifest_path, app_id, command, source_root, release = sys.argv[1:6]
devel = app_id.endswith('.Devel')
results = []


def check(name, ok, why=''):
    results.append((name, ok, why))


try:
    with open(manifest_path, encoding='utf-8') as f:
        manifest = json.load(f)
    check('manifest is valid JSON', isinstance(manifest, dict), 'top level is not an object')
except (OSError, ValueError) as e:
    print('1..1')
    print(f'not ok 1 - manifest is valid JSON  # {manifest_path}: {e}')
    sys.exit(0)

manifest_id = manifest.get('app-id', manifest.get('id'))
check('file is named after its application id',
      os.path.basename(manifest_path) == f'{manifest_id}.json',
      f'{os.path.basename(manifest_path)} holds {manifest_id!r}')
check('application id is the release id', manifest_id == app_id,
      f'{manifest_id!r}, expected {app_id!r}')
check('runtime is org.gnome.Platform', manifest.get('runtime') == 'org.gnome.Platform',
      repr(manifest.get('runtime')))
check('sdk is org.gnome.Sdk', manifest.get('sdk') == 'org.gnome.Sdk', repr(manifest.get('sdk')))
version = str(manifest.get('runtime-version', ''))
check('runtime-version is a stable GNOME release (47 or later)',
      version.isdigit() and int(version) >= 47, repr(version))
check(f'command is {command}', manifest.get('command') == command,
      repr(manifest.get('command')))

finish_args = manifest.get('finish-args', [])
check('finish-args are exactly ' + ' '.join(EXPECTED_FINISH_ARGS),
      sorted(finish_args) == sorted(EXPECTED_FINISH_ARGS) and
      len(finish_args) == len(EXPECTED_FINISH_ARGS),
      'got ' + ' '.join(finish_args))
check('files only read, never written',
      all(a.endswith(':ro') for a in finish_args if a.startswith('--filesystem')),
      'got ' + ' '.join(finish_args))

modules = manifest.get('modules', [])
module = modules[-1] if modules and isinstance(modules[-1], dict) else {}
check('last module is built with meson', module.get('buildsystem') == 'meson',
      repr(module.get('buildsystem')))
sources = module.get('sources', [])
if devel:
    dirs = [s for s in sources if isinstance(s, dict) and s.get('type') == 'dir']
    src_dir = ''
    if len(dirs) == 1:
        src_dir = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(manifest_path)),
                                                dirs[0].get('path', '')))
    check('module is built from this source tree',
          len(sources) == 1 and src_dir == os.path.normpath(os.path.abspath(source_root)),
          f'sources {sources!r} resolve to {src_dir!r}')
    check('module is the development profile (-Dprofile=development)',
          '-Dprofile=development' in module.get('config-opts', []),
          repr(module.get('config-opts')))
else:
    git = sources[0] if len(sources) == 1 and isinstance(sources[0], dict) else {}
    check('module is built from one git source', git.get('type') == 'git', repr(sources))
    check('git source is an https address', str(git.get('url', '')).startswith('https://'),
          repr(git.get('url')))
    check(f'git source is the tag of this version (v{release})', git.get('tag') == f'v{release}',
          repr(git.get('tag')))
    check('git source names no branch and no local path',
          'branch' not in git and 'path' not in git, repr(git))
    commit = git.get('commit')
    check('git commit, when given, is a full hash',
          commit is None or (isinstance(commit, str) and len(commit) == 40 and
                             all(c in '0123456789abcdef' for c in commit)), repr(commit))
check('module requires the window (-Dgui=enabled)',
      '-Dgui=enabled' in module.get('config-opts', []),
      repr(module.get('config-opts')))

print(f'1..{len(results)}')
for i, (name, ok, why) in enumerate(results, 1):
    if ok:
        print(f'ok {i} - {name}')
    else:
        print(f'not ok {i} - {name}  # {why}')
