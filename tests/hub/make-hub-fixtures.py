#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Writes the Hub-shaped tree the Hub tests serve, from the model-file fixtures' writers: one
folder per repository (OUTDIR/repos/ORG/NAME), headers only, each file extended to its full
size with a hole; and fake home folders for Ollama, LM Studio and the Hugging Face cache
(OUTDIR/home).

usage: make-hub-fixtures.py OUTDIR
"""
import importlib.util
import json
import os
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location(
    'fixtures', os.path.join(HERE, '..', 'model-files', 'make-fixtures.py'))
fx = importlib.util.module_from_spec(spec)
spec.loader.exec_module(fx)


def repo(out, name):
    d = os.path.join(out, 'repos', name)
    os.makedirs(d, exist_ok=True)
    return d


def config(d, cfg=None):
    with open(os.path.join(d, 'config.json'), 'w') as f:
        json.dump(cfg or fx.LLAMA_CONFIG, f)


def kv_u16(key, value):
    return fx.s(key) + struct.pack('<IH', 2, value)


def make_repos(out):
    tensors = fx.hf_llama()

    # four shards, as large models are cut
    d = repo(out, 'tiny/llama-4shard')
    config(d)
    quarters = [tensors[i::4] for i in range(4)]
    weight_map = {}
    for i, part in enumerate(quarters):
        name = 'model-%05d-of-00004.safetensors' % (i + 1)
        fx.st_file(os.path.join(d, name), part)
        for t in part:
            weight_map[t[0]] = name
    with open(os.path.join(d, 'model.safetensors.index.json'), 'w') as f:
        json.dump({'metadata': {'total_size': sum(t[3] for t in tensors)}, 'weight_map': weight_map}, f)

    for name in ('tiny/llama-single', 'tiny/gated'):
        d = repo(out, name)
        config(d)
        fx.st_file(os.path.join(d, 'model.safetensors'), tensors)

    d = repo(out, 'tiny/config-only')
    config(d)

    # Qwen3-VL's config alone with its processor files, which the download fetches beside it
    with open(os.path.join(HERE, '..', '..', 'data', 'models', 'qwen3-vl-8b-instruct', 'config.json')) as f:
        qwen3_vl = json.load(f)
    qwen3_vl['text_config']['rope_scaling'] = {'mrope_interleaved': True, 'mrope_section': [24, 20, 20],
                                               'rope_type': 'default'}
    d = repo(out, 'tiny/qwen3-vl-config')
    config(d, qwen3_vl)
    with open(os.path.join(d, 'preprocessor_config.json'), 'w') as f:
        json.dump({'size': {'longest_edge': 16777216, 'shortest_edge': 65536}, 'patch_size': 16,
                   'temporal_patch_size': 2, 'merge_size': 2}, f)
    with open(os.path.join(d, 'video_preprocessor_config.json'), 'w') as f:
        json.dump({'size': {'longest_edge': 25165824, 'shortest_edge': 4096}, 'patch_size': 16,
                   'temporal_patch_size': 2, 'merge_size': 2}, f)

    # a header length of 2^60 in a file of 1 MiB
    d = repo(out, 'tiny/huge-header')
    config(d)
    fx.write_sparse(os.path.join(d, 'model.safetensors'), struct.pack('<Q', 1 << 60) + b'{}', 1 << 20)

    # GGUF quantizations: two single files, one split in two parts, and a vision projector
    gt = fx.llama_tensors(2, 256, 128, 512, 1000)
    d = repo(out, 'tiny/llama-gguf')
    fx.gguf(os.path.join(d, 'tiny-llama-Q4_K_M.gguf'), fx.llama_kvs(), gt)
    fx.gguf(os.path.join(d, 'tiny-llama-Q8_0.gguf'), fx.llama_kvs(file_type=7), gt, data_size=3000000)
    os.makedirs(os.path.join(d, 'Q6_K'), exist_ok=True)
    half = len(gt) // 2
    for i, part in enumerate([gt[:half], gt[half:]]):
        kvs = fx.llama_kvs(file_type=18) if i == 0 else [fx.kv_str('general.architecture', 'llama')]
        kvs = kvs + [kv_u16('split.no', i), kv_u16('split.count', 2), fx.kv_u32('split.tensors.count', len(gt))]
        fx.gguf(os.path.join(d, 'Q6_K', 'tiny-llama-Q6_K-%05d-of-00002.gguf' % (i + 1)), kvs, part)
    fx.gguf(os.path.join(d, 'mmproj-tiny-f16.gguf'), [fx.kv_str('general.architecture', 'clip')],
            [('v.patch_embd.weight', [32, 32], fx.F16)])

    d = repo(out, 'tiny/llama-gguf-one')
    fx.gguf(os.path.join(d, 'tiny-llama-Q4_K_M.gguf'), fx.llama_kvs(), gt)

    # a key whose length says 2^60
    d = repo(out, 'tiny/huge-gguf')
    head = b'GGUF' + struct.pack('<IQQ', 3, 0, 1) + struct.pack('<Q', 1 << 60) + b'general'
    fx.write_sparse(os.path.join(d, 'huge.gguf'), head, 1 << 20)


def manifest(path, digest, media='application/vnd.ollama.image.model'):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, 'w') as f:
        json.dump({'schemaVersion': 2, 'layers': [
            {'mediaType': media, 'digest': 'sha256:' + digest, 'size': 1},
            {'mediaType': 'application/vnd.ollama.image.template', 'digest': 'sha256:' + 'b' * 64}]}, f)


def make_homes(out):
    home = os.path.join(out, 'home')
    gt = fx.llama_tensors(2, 256, 128, 512, 1000)

    # Ollama: a good model, one under a user's namespace, a broken manifest, a missing blob,
    # a manifest with no model layer, and a folder link looping onto itself
    models = os.path.join(home, '.ollama', 'models')
    blobs = os.path.join(models, 'blobs')
    os.makedirs(blobs, exist_ok=True)
    good = 'a' * 64
    fx.gguf(os.path.join(blobs, 'sha256-' + good), fx.llama_kvs(name='qwen3-tiny'), gt)
    lib = os.path.join(models, 'manifests', 'registry.ollama.ai', 'library')
    manifest(os.path.join(lib, 'qwen3', '30b-a3b'), good)
    manifest(os.path.join(lib, 'qwen3', 'latest'), good)
    manifest(os.path.join(models, 'manifests', 'registry.ollama.ai', 'someone', 'tiny', 'q4'), good)
    manifest(os.path.join(lib, 'gone', 'latest'), 'c' * 64)
    manifest(os.path.join(lib, 'template-only', 'latest'), good, media='application/vnd.ollama.image.license')
    os.makedirs(os.path.join(lib, 'broken'), exist_ok=True)
    with open(os.path.join(lib, 'broken', 'latest'), 'w') as f:
        f.write('{"layers": [')
    os.symlink('.', os.path.join(lib, 'loop'))
    os.symlink('self-link', os.path.join(lib, 'qwen3', 'self-link'))

    # LM Studio: publisher/repository/file.gguf, a split model, a projector
    lms = os.path.join(home, '.lmstudio', 'models', 'lmstudio-community', 'Tiny-GGUF')
    os.makedirs(lms, exist_ok=True)
    fx.gguf(os.path.join(lms, 'Tiny-Q4_K_M.gguf'), fx.llama_kvs(), gt)
    fx.gguf(os.path.join(lms, 'mmproj-Tiny-F16.gguf'), [fx.kv_str('general.architecture', 'clip')],
            [('v.patch_embd.weight', [32, 32], fx.F16)])
    os.symlink('..', os.path.join(lms, 'up'))

    # The Hugging Face cache: blobs, a snapshot of links into them, refs/main
    hub = os.path.join(home, '.cache', 'huggingface', 'hub', 'models--tiny--llama')
    commit = '1' * 40
    snap = os.path.join(hub, 'snapshots', commit)
    os.makedirs(snap, exist_ok=True)
    os.makedirs(os.path.join(hub, 'blobs'), exist_ok=True)
    os.makedirs(os.path.join(hub, 'refs'), exist_ok=True)
    with open(os.path.join(hub, 'refs', 'main'), 'w') as f:
        f.write(commit)
    with open(os.path.join(hub, 'blobs', 'cfg'), 'w') as f:
        json.dump(fx.LLAMA_CONFIG, f)
    fx.st_file(os.path.join(hub, 'blobs', 'st'), fx.hf_llama())
    os.symlink('../../blobs/cfg', os.path.join(snap, 'config.json'))
    os.symlink('../../blobs/st', os.path.join(snap, 'model.safetensors'))
    # a snapshot whose link points at itself
    bad = os.path.join(home, '.cache', 'huggingface', 'hub', 'models--tiny--looping', 'snapshots', '2' * 40)
    os.makedirs(bad, exist_ok=True)
    os.symlink('model.gguf', os.path.join(bad, 'model.gguf'))


def main():
    out = sys.argv[1]
    make_repos(out)
    make_homes(out)


if __name__ == '__main__':
    main()
