#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Writes the hostile model files the hostile tests and build-aux/bench-hostile read. Long
arrays are holes (sparse files): a header of hundreds of MB takes a few MB of disk.

usage: make-hostile.py OUTDIR [--parts N]
"""
import json
import os
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'model-files'))
from importlib import import_module  # noqa: E402

fx = import_module('make-fixtures')

GGUF_UINT8, GGUF_UINT16 = 0, 2


def u16(key, value):
    return fx.s(key) + struct.pack('<IH', GGUF_UINT16, value)


def sparse_gguf(path, kvs, arrays, array_len, tensors):
    """A GGUF whose metadata ends with `arrays` uint8 arrays of `array_len` elements, each a
    hole; then the tensor infos, padding and the data area (a hole too)."""
    with open(path, 'wb') as f:
        f.write(b'GGUF' + struct.pack('<IQQ', 3, len(tensors), len(kvs) + arrays))
        for kv in kvs:
            f.write(kv)
        for i in range(arrays):
            f.write(fx.s('junk.%d' % i) + struct.pack('<IIQ', 9, GGUF_UINT8, array_len))
            f.seek(array_len, 1)
        offset = 0
        for name, dims, t in tensors:
            f.write(fx.s(name) + struct.pack('<I', len(dims)))
            for d in dims:
                f.write(struct.pack('<Q', d))
            f.write(struct.pack('<IQ', t[0], offset))
            offset += fx.tensor_bytes(dims, t)
            offset += (32 - offset % 32) % 32
        pos = f.tell()
        data_start = pos + (32 - pos % 32) % 32
        f.truncate(data_start + offset)


def split_kvs(no, count, extra=()):
    # llama.cpp writes uint16 counts; a count past 65,535 needs a wider one
    count_kv = u16('split.count', count) if count < 65536 else fx.kv_u32('split.count', count)
    return [u16('split.no', no), count_kv] + list(extra)


def quantized(out, folder, model, quant, layers=None):
    """model's config.json (tests/hf-config/models) with quantization_config `quant`."""
    src = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'hf-config', 'models', model, 'config.json')
    with open(src) as f:
        config = json.load(f)
    config['quantization_config'] = quant
    if layers:
        config['num_hidden_layers'] = layers
    d = os.path.join(out, folder)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, 'config.json'), 'w') as f:
        json.dump(config, f)


def bench_inputs(out):
    """The inputs build-aux/bench-hostile times, beyond the tests' own."""
    stall = 're:(.*)*(.*)*(.*)*(.*)*mlp\\.gate$'
    ct = {'quant_method': 'compressed-tensors', 'format': 'float-quantized',
          'config_groups': {'group_0': {'targets': ['Linear'], 'weights': {'num_bits': 8, 'type': 'float'}}},
          'ignore': ['lm_head', stall]}
    quantized(out, 'regex-llama', 'Llama-3.1-8B', ct)
    quantized(out, 'regex-deepseek', 'DeepSeek-V3', ct)
    quantized(out, 'regex-wide', 'Llama-3.1-8B',
              {'quant_method': 'fp8', 'modules_to_not_convert': ['model.layers.*.mlp.x%d*' % i for i in range(50)]},
              layers=20000)
    # the slowest pattern found that stays under the step limit, on as many names as allowed
    quantized(out, 'regex-slow', 'Llama-3.1-8B',
              {'quant_method': 'fp8', 'modules_to_not_convert': ['re:(.?){5}.{5}$']}, layers=700)
    # 60 million empty strings (480 MB of header, zeros: a hole)
    tensors = fx.llama_tensors(2, 256, 128, 512, 1000)
    with open(os.path.join(out, 'strings.gguf'), 'wb') as f:
        f.write(b'GGUF' + struct.pack('<IQQ', 3, len(tensors), len(fx.llama_kvs()) + 1))
        for kv in fx.llama_kvs()[:-1]:
            f.write(kv)
        f.write(fx.s('junk.strings') + struct.pack('<IIQ', 9, 8, 60000000))
        f.seek(60000000 * 8, 1)
        f.write(fx.kv_tokens(1000))
        offset = 0
        for name, dims, t in tensors:
            f.write(fx.s(name) + struct.pack('<I', len(dims)))
            for d in dims:
                f.write(struct.pack('<Q', d))
            f.write(struct.pack('<IQ', t[0], offset))
            offset += fx.tensor_bytes(dims, t)
            offset += (32 - offset % 32) % 32
        pos = f.tell()
        f.truncate(pos + (32 - pos % 32) % 32 + offset)
    with open(os.path.join(out, 'gpus-256.json'), 'w') as f:
        json.dump({'format': 'vram-calculator-profile', 'version': 1, 'name': 'most',
                   'inputs': {'custom-gpus': '; '.join('Card %d=24GB' % i for i in range(256))}}, f)
    gpus = '; '.join('Card %d=24GB' % i for i in range(75000))
    with open(os.path.join(out, 'gpus-75000.json'), 'w') as f:
        json.dump({'format': 'vram-calculator-profile', 'version': 1, 'name': 'many',
                   'inputs': {'custom-gpus': gpus}}, f)
    if not os.path.exists(os.path.join(out, 'pipe.json')):
        os.mkfifo(os.path.join(out, 'pipe.json'))


def main():
    out = sys.argv[1]
    parts = int(sys.argv[3]) if len(sys.argv) > 3 and sys.argv[2] == '--parts' else 3
    if '--bench' in sys.argv:
        bench_inputs(out)
    tensors = fx.llama_tensors(2, 256, 128, 512, 1000)

    # 480 arrays of 1 MiB: 503 MB of header, skipped; 700 arrays of 100,000: each one kept, the
    # whole past the 64 MiB a header may take
    sparse_gguf(os.path.join(out, 'arrays-long.gguf'), fx.llama_kvs(), 480, 1 << 20, tensors)
    sparse_gguf(os.path.join(out, 'arrays-kept.gguf'), fx.llama_kvs(), 700, 100000, tensors)

    # 150,000 strings of 1 to 40 bytes (3 MB): lengths and strings across the reader's chunks
    strings = fx.s('junk.tokens') + struct.pack('<IIQ', 9, 8, 150000)
    strings += b''.join(fx.s('t' * (1 + i % 40)) for i in range(150000))
    fx.gguf(os.path.join(out, 'many-strings.gguf'), fx.llama_kvs(extra=[strings]), tensors)

    # a split model whose later parts are the first one again
    d = os.path.join(out, 'split-repeat')
    os.makedirs(d, exist_ok=True)
    first = 'tiny-00001-of-%05d.gguf' % parts
    fx.gguf(os.path.join(d, first),
            fx.llama_kvs(extra=split_kvs(0, parts)), tensors)
    for i in range(2, parts + 1):
        link = os.path.join(d, 'tiny-%05d-of-%05d.gguf' % (i, parts))
        if not os.path.lexists(link):
            os.symlink(first, link)

    # a split model whose second part says it is the second but holds the first part's tensors
    d = os.path.join(out, 'split-dup')
    os.makedirs(d, exist_ok=True)
    fx.gguf(os.path.join(d, 'tiny-00001-of-00002.gguf'),
            fx.llama_kvs(extra=split_kvs(0, 2)), tensors[:3])
    fx.gguf(os.path.join(d, 'tiny-00002-of-00002.gguf'), split_kvs(1, 2), tensors[:3] + tensors[3:])

    # a name that clears the screen and forges a line
    fx.gguf(os.path.join(out, 'control-name.gguf'),
            fx.llama_kvs(name='evil\x1b[2J\rFITS \x9b31m'), tensors)

    # a refused tensor whose name would clear the screen in the message
    fx.gguf(os.path.join(out, 'control-tensor.gguf'), fx.llama_kvs(),
            [('evil\x1b[2J\r.weight', [256, 1000], (31, 0, 0))], size=1 << 20)

    # safetensors headers that only a lenient reader takes: a comment, a hex number
    for name, text in (('st-comment.safetensors', b'{"w": /* a comment */ {"dtype": "F32", "shape": [1], "data_offsets": [0, 4]}}'),
                       ('st-hex.safetensors', b'{"w": {"dtype": "F32", "shape": [0x1], "data_offsets": [0, 4]}}')):
        fx.st_file(os.path.join(out, name), [], header=text, size=8 + len(text) + 4)

    # a folder of two models; a pipe and a dangling link named like models
    d = os.path.join(out, 'two-models')
    os.makedirs(d, exist_ok=True)
    fx.gguf(os.path.join(d, 'a.gguf'), fx.llama_kvs(), tensors)
    fx.gguf(os.path.join(d, 'b.gguf'), fx.llama_kvs(), tensors)
    if not os.path.exists(os.path.join(out, 'pipe.gguf')):
        os.mkfifo(os.path.join(out, 'pipe.gguf'))
    if not os.path.lexists(os.path.join(out, 'dangling.gguf')):
        os.symlink('nowhere.gguf', os.path.join(out, 'dangling.gguf'))

    # an index that is really /proc/self/pagemap (size 0, endless)
    d = os.path.join(out, 'pagemap')
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, 'config.json'), 'w') as f:
        json.dump(fx.LLAMA_CONFIG, f)
    link = os.path.join(d, 'model.safetensors.index.json')
    if not os.path.lexists(link):
        os.symlink('/proc/self/pagemap', link)


if __name__ == '__main__':
    main()
