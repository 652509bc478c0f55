#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Writes the model files the model-file tests read: GGUF files and safetensors folders, good
and bad. Only headers are written; each file is then extended to its full size with truncate(),
so the data area is a hole and takes no disk space.

usage: make-fixtures.py OUTDIR
"""
import json
import os
import struct
import sys

# ggml types: (id, elements per block, bytes per block), from ggml-common.h's block structures
F32 = (0, 1, 4)
F16 = (1, 1, 2)
Q8_0 = (8, 32, 34)
Q4_K = (12, 256, 144)
Q6_K = (14, 256, 210)
MXFP4 = (39, 32, 17)

GGUF_UINT32, GGUF_BOOL, GGUF_STRING, GGUF_ARRAY, GGUF_UINT64 = 4, 7, 8, 9, 10


def s(text):
    b = text.encode()
    return struct.pack('<Q', len(b)) + b


def kv_u32(key, value):
    return s(key) + struct.pack('<II', GGUF_UINT32, value)


def kv_f32(key, value):
    return s(key) + struct.pack('<If', 6, value)   # GGUF_TYPE_FLOAT32


def kv_f32_array(key, values):
    return s(key) + struct.pack('<IIQ', GGUF_ARRAY, 6, len(values)) + struct.pack('<%df' % len(values), *values)


def kv_str(key, value):
    return s(key) + struct.pack('<I', GGUF_STRING) + s(value)


def kv_tokens(n):
    out = s('tokenizer.ggml.tokens') + struct.pack('<IIQ', GGUF_ARRAY, GGUF_STRING, n)
    for i in range(n):
        out += s('t%d' % i)
    return out


def tensor_bytes(dims, ggml_type):
    _, block, size = ggml_type
    n = 1
    for d in dims:
        n *= d
    return n // block * size


def llama_tensors(n_layers, hidden, kv_dim, ff, vocab):
    """(name, dims in ggml order (row length first), type): a Q4_K_M-like mix."""
    t = [('token_embd.weight', [hidden, vocab], Q4_K),
         ('output_norm.weight', [hidden], F32),
         ('output.weight', [hidden, vocab], Q6_K)]
    for i in range(n_layers):
        p = 'blk.%d.' % i
        t += [(p + 'attn_norm.weight', [hidden], F32),
              (p + 'attn_q.weight', [hidden, hidden], Q4_K),
              (p + 'attn_k.weight', [hidden, kv_dim], Q4_K),
              (p + 'attn_v.weight', [hidden, kv_dim], Q6_K),
              (p + 'attn_output.weight', [hidden, hidden], Q4_K),
              (p + 'ffn_norm.weight', [hidden], F32),
              (p + 'ffn_gate.weight', [hidden, ff], Q4_K),
              (p + 'ffn_up.weight', [hidden, ff], Q4_K),
              (p + 'ffn_down.weight', [ff, hidden], Q6_K)]
    return t


def gguf(path, kvs, tensors, version=3, alignment=32, magic=b'GGUF', tensor_count=None,
         offsets=None, size=None, cut=None, data_size=None):
    """kvs: encoded key/values; tensors: (name, dims, type). Offsets follow one another, aligned,
    unless given. size: the file's size (default: header and data); cut: keep only this many
    bytes of the header."""
    head = magic + struct.pack('<I', version)
    head += struct.pack('<QQ', len(tensors) if tensor_count is None else tensor_count, len(kvs))
    for kv in kvs:
        head += kv
    offset = 0
    end = 0
    for i, (name, dims, ggml_type) in enumerate(tensors):
        off = offsets[i] if offsets else offset
        head += s(name) + struct.pack('<I', len(dims))
        for d in dims:
            head += struct.pack('<Q', d)
        head += struct.pack('<IQ', ggml_type[0], off)
        nbytes = tensor_bytes(dims, ggml_type) if ggml_type[1] else 0
        end = max(end, off + nbytes)
        offset = off + nbytes
        offset += (alignment - offset % alignment) % alignment
    if cut is not None:
        head = head[:cut]
    data_start = len(head) + (alignment - len(head) % alignment) % alignment
    if data_size is not None:
        size = data_start + data_size
    write_sparse(path, head, data_start + end if size is None else size)


def write_sparse(path, head, size):
    with open(path, 'wb') as f:
        f.write(head)
        f.truncate(max(size, len(head)))


def llama_kvs(name='tiny-llama', file_type=15, n_layers=2, context=4096, vocab=1000, extra=()):
    return [kv_str('general.architecture', 'llama'),
            kv_str('general.name', name),
            kv_u32('general.file_type', file_type),
            kv_u32('llama.block_count', n_layers),
            kv_u32('llama.context_length', context),
            kv_u32('llama.embedding_length', 256),
            kv_u32('llama.feed_forward_length', 512),
            kv_u32('llama.attention.head_count', 4),
            kv_u32('llama.attention.head_count_kv', 2)] + list(extra) + [kv_tokens(vocab)]


def make_gguf(out):
    d = os.path.join(out, 'gguf')
    os.makedirs(d, exist_ok=True)
    tensors = llama_tensors(2, 256, 128, 512, 1000)
    gguf(os.path.join(d, 'tiny-llama-Q4_K_M.gguf'), llama_kvs(), tensors)

    # a folder holding one GGUF (and a vision projector, which is not the model)
    folder = os.path.join(d, 'folder')
    os.makedirs(folder, exist_ok=True)
    gguf(os.path.join(folder, 'tiny-llama-Q4_K_M.gguf'), llama_kvs(), tensors)
    gguf(os.path.join(folder, 'mmproj-tiny.gguf'), [kv_str('general.architecture', 'clip')],
         [('v.patch_embd.weight', [32, 32], F16)])

    # a folder with a config.json beside the GGUF: the GGUF is read
    with_config = os.path.join(d, 'with-config')
    os.makedirs(with_config, exist_ok=True)
    gguf(os.path.join(with_config, 'tiny-llama-Q4_K_M.gguf'), llama_kvs(), tensors)
    with open(os.path.join(with_config, 'config.json'), 'w') as f:
        json.dump(LLAMA_CONFIG, f)

    # split in two: the first part holds the metadata and the token embedding
    split = os.path.join(d, 'split')
    os.makedirs(split, exist_ok=True)
    first = tensors[:3]
    rest = tensors[3:]
    gguf(os.path.join(split, 'tiny-llama-00001-of-00002.gguf'),
         llama_kvs(extra=[s('split.no') + struct.pack('<IH', 2, 0),
                          s('split.count') + struct.pack('<IH', 2, 2),
                          s('split.tensors.count') + struct.pack('<Ii', 5, len(tensors))]),
         first)
    gguf(os.path.join(split, 'tiny-llama-00002-of-00002.gguf'),
         [s('split.no') + struct.pack('<IH', 2, 1), s('split.count') + struct.pack('<IH', 2, 2)],
         rest)

    # a Q8_0 model with a sliding window on every layer but each fourth (no pattern key:
    # refused), and an MoE with MXFP4 experts
    moe = [('token_embd.weight', [256, 1000], Q8_0), ('output_norm.weight', [256], F32)]
    for i in range(2):
        p = 'blk.%d.' % i
        moe += [(p + 'attn_norm.weight', [256], F32),
                (p + 'attn_q.weight', [256, 256], Q8_0),
                (p + 'attn_k.weight', [256, 128], Q8_0),
                (p + 'attn_v.weight', [256, 128], Q8_0),
                (p + 'attn_output.weight', [256, 256], Q8_0),
                (p + 'ffn_norm.weight', [256], F32),
                (p + 'ffn_gate_inp.weight', [256, 8], F32),
                (p + 'ffn_gate_exps.weight', [256, 128, 8], MXFP4),
                (p + 'ffn_up_exps.weight', [256, 128, 8], MXFP4),
                (p + 'ffn_down_exps.weight', [128, 256, 8], MXFP4)]
    gguf(os.path.join(d, 'tiny-moe.gguf'),
         [kv_str('general.architecture', 'qwen3moe'),
          kv_u32('qwen3moe.block_count', 2),
          kv_u32('qwen3moe.context_length', 32768),
          kv_u32('qwen3moe.embedding_length', 256),
          kv_u32('qwen3moe.feed_forward_length', 512),
          kv_u32('qwen3moe.expert_feed_forward_length', 128),
          kv_u32('qwen3moe.expert_count', 8),
          kv_u32('qwen3moe.expert_used_count', 2),
          kv_u32('qwen3moe.attention.head_count', 4),
          kv_u32('qwen3moe.attention.head_count_kv', 2),
          kv_tokens(1000)], moe)

    # bad files, each with one fault
    bad = os.path.join(d, 'bad')
    os.makedirs(bad, exist_ok=True)
    kvs = llama_kvs()
    gguf(os.path.join(bad, 'magic.gguf'), kvs, tensors, magic=b'GGUX')
    gguf(os.path.join(bad, 'version.gguf'), kvs, tensors, version=99)
    gguf(os.path.join(bad, 'truncated.gguf'), kvs, [], cut=300, size=300)
    gguf(os.path.join(bad, 'tensor-count.gguf'), kvs, tensors, tensor_count=1 << 60)
    write_sparse(os.path.join(bad, 'string-length.gguf'),
                 b'GGUF' + struct.pack('<IQQ', 3, 0, 1) + struct.pack('<Q', 1 << 40) + b'general', 4096)
    gguf(os.path.join(bad, 'dims-overflow.gguf'), kvs,
         [('token_embd.weight', [1 << 32, 1 << 32], F32)], size=1 << 20)
    offs = []
    off = 0
    for name, dims, t in tensors:
        offs.append(off)
        off += tensor_bytes(dims, t)
        off += (32 - off % 32) % 32
    offs[4] = offs[3]  # blk.0.attn_q overlaps blk.0.attn_norm
    gguf(os.path.join(bad, 'overlap.gguf'), kvs, tensors, offsets=offs)
    gguf(os.path.join(bad, 'past-end.gguf'), kvs, tensors, data_size=1000000)
    gguf(os.path.join(bad, 'unknown-type.gguf'), kvs, [('token_embd.weight', [256, 1000], (31, 0, 0))],
         size=1 << 20)
    gguf(os.path.join(bad, 'ssm.gguf'), kvs + [kv_u32('llama.ssm.state_size', 16)], tensors)
    write_sparse(os.path.join(bad, 'empty.gguf'), b'', 0)


def st_header(tensors, pad=True):
    """tensors: (name, dtype, shape, nbytes). Returns (header bytes, data size)."""
    header = {'__metadata__': {'format': 'pt'}}
    off = 0
    for name, dtype, shape, nbytes in tensors:
        header[name] = {'dtype': dtype, 'shape': shape, 'data_offsets': [off, off + nbytes]}
        off += nbytes
    text = json.dumps(header).encode()
    if pad:
        text += b' ' * ((8 - len(text) % 8) % 8)
    return text, off


def st_file(path, tensors, header=None, size=None):
    text, data = st_header(tensors)
    if header is not None:
        text = header
    write_sparse(path, struct.pack('<Q', len(text)) + text, 8 + len(text) + data if size is None else size)


LLAMA_CONFIG = {
    'architectures': ['LlamaForCausalLM'], 'model_type': 'llama', 'hidden_size': 256,
    'intermediate_size': 512, 'num_attention_heads': 4, 'num_key_value_heads': 2,
    'num_hidden_layers': 2, 'vocab_size': 1000, 'max_position_embeddings': 4096,
    'tie_word_embeddings': False, 'torch_dtype': 'bfloat16', 'rms_norm_eps': 1e-5,
}


def hf_llama(dtype='BF16', size=2):
    t = [('model.embed_tokens.weight', [1000, 256]), ('model.norm.weight', [256]),
         ('lm_head.weight', [1000, 256])]
    for i in range(2):
        p = 'model.layers.%d.' % i
        t += [(p + 'input_layernorm.weight', [256]), (p + 'post_attention_layernorm.weight', [256]),
              (p + 'self_attn.q_proj.weight', [256, 256]), (p + 'self_attn.k_proj.weight', [128, 256]),
              (p + 'self_attn.v_proj.weight', [128, 256]), (p + 'self_attn.o_proj.weight', [256, 256]),
              (p + 'mlp.gate_proj.weight', [512, 256]), (p + 'mlp.up_proj.weight', [512, 256]),
              (p + 'mlp.down_proj.weight', [256, 512])]
    out = []
    for name, shape in t:
        n = 1
        for x in shape:
            n *= x
        out.append((name, dtype, shape, n * size))
    return out


def make_safetensors(out):
    d = os.path.join(out, 'safetensors')
    tensors = hf_llama()

    single = os.path.join(d, 'single')
    os.makedirs(single, exist_ok=True)
    with open(os.path.join(single, 'config.json'), 'w') as f:
        json.dump(LLAMA_CONFIG, f)
    st_file(os.path.join(single, 'model.safetensors'), tensors)

    sharded = os.path.join(d, 'sharded')
    os.makedirs(sharded, exist_ok=True)
    with open(os.path.join(sharded, 'config.json'), 'w') as f:
        json.dump(LLAMA_CONFIG, f)
    halves = [tensors[:3], tensors[3:]]
    weight_map = {}
    for i, part in enumerate(halves):
        name = 'model-%05d-of-00002.safetensors' % (i + 1)
        st_file(os.path.join(sharded, name), part)
        for t in part:
            weight_map[t[0]] = name
    with open(os.path.join(sharded, 'model.safetensors.index.json'), 'w') as f:
        json.dump({'metadata': {'total_size': sum(t[3] for t in tensors)}, 'weight_map': weight_map}, f)

    # GPTQ 4-bit, group 128: the linear layers packed in I32 with their scales and zeros
    gptq = os.path.join(d, 'gptq')
    os.makedirs(gptq, exist_ok=True)
    config = dict(LLAMA_CONFIG, torch_dtype='float16',
                  quantization_config={'quant_method': 'gptq', 'bits': 4, 'group_size': 128,
                                       'desc_act': False, 'sym': True})
    with open(os.path.join(gptq, 'config.json'), 'w') as f:
        json.dump(config, f)
    packed = []
    for name, dtype, shape, nbytes in hf_llama('F16'):
        if len(shape) == 2 and name.startswith('model.layers.'):
            out_f, in_f = shape
            base = name[:-len('.weight')]
            packed += [(base + '.qweight', 'I32', [in_f // 8, out_f], in_f // 8 * out_f * 4),
                       (base + '.qzeros', 'I32', [in_f // 128, out_f // 8], in_f // 128 * out_f // 8 * 4),
                       (base + '.scales', 'F16', [in_f // 128, out_f], in_f // 128 * out_f * 2),
                       (base + '.g_idx', 'I32', [in_f], in_f * 4)]
        else:
            packed.append((name, dtype, shape, nbytes))
    st_file(os.path.join(gptq, 'model.safetensors'), packed)

    bad = os.path.join(d, 'bad')
    os.makedirs(bad, exist_ok=True)
    small = tensors[:3]

    def bad_folder(name, header=None, size=None, files=None):
        folder = os.path.join(bad, name)
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, 'config.json'), 'w') as f:
            json.dump(LLAMA_CONFIG, f)
        if files is not None:
            for fname, content in files.items():
                with open(os.path.join(folder, fname), 'wb') as f:
                    f.write(content)
            return
        st_file(os.path.join(folder, 'model.safetensors'), small, header=header, size=size)

    text, data = st_header(small)
    bad_folder('header-too-large', files={'model.safetensors': struct.pack('<Q', 200_000_000) + b'{}'})
    write_sparse(os.path.join(bad, 'header-too-large', 'model.safetensors'),
                 struct.pack('<Q', 200_000_000) + b'{}', 300_000_000)
    bad_folder('header-past-end', files={'model.safetensors': struct.pack('<Q', 5000) + text[:100]})
    bad_folder('short', files={'model.safetensors': b'\x01\x02'})
    over = json.loads(text)
    over['model.norm.weight']['data_offsets'] = [0, 512]
    bad_folder('overlap', header=json.dumps(over).encode())
    past = json.loads(text)
    past['lm_head.weight']['data_offsets'] = [data, data + 512000]
    bad_folder('past-end', header=json.dumps(past).encode(), size=8 + 4096)
    wrong = json.loads(text)
    wrong['model.norm.weight']['shape'] = [300]
    bad_folder('size-mismatch', header=json.dumps(wrong).encode())
    bad_folder('not-json', header=b'{"a": [1, 2', size=8 + 11)
    bad_folder('dtype', header=text.replace(b'"BF16"', b'"Q9"', 1))
    bad_folder('deep', header=b'[' * 100000 + b']' * 100000)
    big = json.loads(text)
    big['model.norm.weight']['data_offsets'] = [0, 123456789012345678901234567890]
    bad_folder('huge-number', header=json.dumps(big).encode())
    # an index naming a shard outside the folder
    bad_folder('index-escape', files={'model.safetensors.index.json': json.dumps(
        {'weight_map': {'lm_head.weight': '../model.safetensors'}}).encode()})


QUANT_CONFIGS = {
    'fp8-block': {'quant_method': 'fp8', 'activation_scheme': 'dynamic', 'fmt': 'e4m3',
                  'weight_block_size': [128, 128]},
    'fbgemm-fp8': {'quant_method': 'fbgemm_fp8', 'activation_scale_ub': 1200.0,
                   'modules_to_not_convert': ['model.layers.0.mlp', 'self_attn', 'lm_head']},
    'bnb-nf4': {'quant_method': 'bitsandbytes', 'load_in_4bit': True, 'bnb_4bit_quant_type': 'nf4',
                'bnb_4bit_use_double_quant': False, 'bnb_4bit_compute_dtype': 'bfloat16'},
    'awq': {'quant_method': 'awq', 'bits': 4, 'group_size': 128, 'zero_point': True, 'version': 'gemm'},
    'gptq': {'quant_method': 'gptq', 'bits': 4, 'group_size': 128, 'desc_act': False, 'sym': True},
    'unknown-method': {'quant_method': 'hqq', 'nbits': 4},
    'mxfp4-dense': {'quant_method': 'mxfp4'},
    'unknown-module': {'quant_method': 'fp8', 'weight_block_size': [128, 128],
                       'modules_to_not_convert': ['model.layers.0.block_sparse_moe.experts.0.w1']},
    'gptq-5bit': {'quant_method': 'gptq', 'bits': 5, 'group_size': 128},
}


def make_configs(out):
    for name, qc in QUANT_CONFIGS.items():
        d = os.path.join(out, 'configs', name)
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, 'config.json'), 'w') as f:
            json.dump(dict(LLAMA_CONFIG, quantization_config=qc), f)


# One model four ways, for the plans on My GPUs (test-combinations.c): Llama 3 8B as the
# catalog's preset has it (data/models/llama-3-8b/config.json), as a config.json alone, as a
# safetensors folder in BF16 and as a GGUF file in BF16 (norms in F32, as convert_hf_to_gguf.py
# writes them)
LLAMA3_8B_CONFIG = {
    'architectures': ['LlamaForCausalLM'], 'model_type': 'llama', 'num_hidden_layers': 32,
    'hidden_size': 4096, 'num_attention_heads': 32, 'num_key_value_heads': 8,
    'intermediate_size': 14336, 'vocab_size': 128256, 'max_position_embeddings': 8192,
    'tie_word_embeddings': False, 'torch_dtype': 'bfloat16', 'rope_theta': 500000.0,
}


def make_llama3_8b(out):
    h, kv, ff, vocab, n_layers = 4096, 1024, 14336, 128256, 32
    d = os.path.join(out, 'llama-3-8b')
    for sub in ('config', 'safetensors', 'gguf'):
        os.makedirs(os.path.join(d, sub), exist_ok=True)
    for sub in ('config', 'safetensors'):
        with open(os.path.join(d, sub, 'config.json'), 'w') as f:
            json.dump(LLAMA3_8B_CONFIG, f)
    t = [('model.embed_tokens.weight', [vocab, h]), ('model.norm.weight', [h]), ('lm_head.weight', [vocab, h])]
    for i in range(n_layers):
        p = 'model.layers.%d.' % i
        t += [(p + 'input_layernorm.weight', [h]), (p + 'post_attention_layernorm.weight', [h]),
              (p + 'self_attn.q_proj.weight', [h, h]), (p + 'self_attn.k_proj.weight', [kv, h]),
              (p + 'self_attn.v_proj.weight', [kv, h]), (p + 'self_attn.o_proj.weight', [h, h]),
              (p + 'mlp.gate_proj.weight', [ff, h]), (p + 'mlp.up_proj.weight', [ff, h]),
              (p + 'mlp.down_proj.weight', [h, ff])]
    st_file(os.path.join(d, 'safetensors', 'model.safetensors'),
            [(name, 'BF16', shape, 2 * shape[0] * (shape[1] if len(shape) > 1 else 1)) for name, shape in t])
    BF16 = (30, 1, 2)
    g = [('token_embd.weight', [h, vocab], BF16), ('output_norm.weight', [h], F32),
         ('output.weight', [h, vocab], BF16)]
    for i in range(n_layers):
        p = 'blk.%d.' % i
        g += [(p + 'attn_norm.weight', [h], F32), (p + 'attn_q.weight', [h, h], BF16),
              (p + 'attn_k.weight', [h, kv], BF16), (p + 'attn_v.weight', [h, kv], BF16),
              (p + 'attn_output.weight', [h, h], BF16), (p + 'ffn_norm.weight', [h], F32),
              (p + 'ffn_gate.weight', [h, ff], BF16), (p + 'ffn_up.weight', [h, ff], BF16),
              (p + 'ffn_down.weight', [ff, h], BF16)]
    gguf(os.path.join(d, 'gguf', 'llama-3-8b-BF16.gguf'),
         [kv_str('general.architecture', 'llama'), kv_str('general.name', 'Llama 3 8B'),
          kv_u32('llama.block_count', n_layers), kv_u32('llama.context_length', 8192),
          kv_u32('llama.embedding_length', h), kv_u32('llama.feed_forward_length', ff),
          kv_u32('llama.attention.head_count', 32), kv_u32('llama.attention.head_count_kv', 8),
          kv_u32('llama.vocab_size', vocab)], g)


# Qwen3-30B-A3B the same four ways (an MoE: 128 routed experts of 768 a layer, 8 used; q and k
# norms of head_dim 128): the catalog's config.json keys, safetensors in BF16, GGUF in BF16
QWEN3_MOE_CONFIG = {
    'architectures': ['Qwen3MoeForCausalLM'], 'model_type': 'qwen3_moe', 'attention_bias': False,
    'decoder_sparse_step': 1, 'head_dim': 128, 'hidden_act': 'silu', 'hidden_size': 2048,
    'intermediate_size': 6144, 'max_position_embeddings': 40960, 'max_window_layers': 48,
    'mlp_only_layers': [], 'moe_intermediate_size': 768, 'norm_topk_prob': True,
    'num_attention_heads': 32, 'num_experts': 128, 'num_experts_per_tok': 8,
    'num_hidden_layers': 48, 'num_key_value_heads': 4, 'rms_norm_eps': 1e-06,
    'rope_scaling': None, 'rope_theta': 1000000.0, 'sliding_window': None,
    'tie_word_embeddings': False, 'torch_dtype': 'bfloat16', 'use_sliding_window': False,
    'vocab_size': 151936,
}


def make_qwen3_moe(out):
    h, hd, heads, kv_heads, ff, n_exp, vocab, n_layers = 2048, 128, 32, 4, 768, 128, 151936, 48
    d = os.path.join(out, 'qwen3-30b-a3b')
    for sub in ('config', 'safetensors', 'gguf'):
        os.makedirs(os.path.join(d, sub), exist_ok=True)
    for sub in ('config', 'safetensors'):
        with open(os.path.join(d, sub, 'config.json'), 'w') as f:
            json.dump(QWEN3_MOE_CONFIG, f)
    t = [('model.embed_tokens.weight', [vocab, h]), ('model.norm.weight', [h]), ('lm_head.weight', [vocab, h])]
    for i in range(n_layers):
        p = 'model.layers.%d.' % i
        t += [(p + 'input_layernorm.weight', [h]), (p + 'post_attention_layernorm.weight', [h]),
              (p + 'self_attn.q_proj.weight', [heads * hd, h]), (p + 'self_attn.k_proj.weight', [kv_heads * hd, h]),
              (p + 'self_attn.v_proj.weight', [kv_heads * hd, h]), (p + 'self_attn.o_proj.weight', [h, heads * hd]),
              (p + 'self_attn.q_norm.weight', [hd]), (p + 'self_attn.k_norm.weight', [hd]),
              (p + 'mlp.gate.weight', [n_exp, h])]
        for e in range(n_exp):
            q = p + 'mlp.experts.%d.' % e
            t += [(q + 'gate_proj.weight', [ff, h]), (q + 'up_proj.weight', [ff, h]), (q + 'down_proj.weight', [h, ff])]
    st_file(os.path.join(d, 'safetensors', 'model.safetensors'),
            [(name, 'BF16', shape, 2 * shape[0] * (shape[1] if len(shape) > 1 else 1)) for name, shape in t])
    BF16 = (30, 1, 2)
    g = [('token_embd.weight', [h, vocab], BF16), ('output_norm.weight', [h], F32),
         ('output.weight', [h, vocab], BF16)]
    for i in range(n_layers):
        p = 'blk.%d.' % i
        g += [(p + 'attn_norm.weight', [h], F32), (p + 'attn_q.weight', [h, heads * hd], BF16),
              (p + 'attn_k.weight', [h, kv_heads * hd], BF16), (p + 'attn_v.weight', [h, kv_heads * hd], BF16),
              (p + 'attn_output.weight', [heads * hd, h], BF16), (p + 'attn_q_norm.weight', [hd], F32),
              (p + 'attn_k_norm.weight', [hd], F32), (p + 'ffn_norm.weight', [h], F32),
              (p + 'ffn_gate_inp.weight', [h, n_exp], F32),
              (p + 'ffn_gate_exps.weight', [h, ff, n_exp], BF16), (p + 'ffn_up_exps.weight', [h, ff, n_exp], BF16),
              (p + 'ffn_down_exps.weight', [ff, h, n_exp], BF16)]
    gguf(os.path.join(d, 'gguf', 'qwen3-30b-a3b-BF16.gguf'),
         [kv_str('general.architecture', 'qwen3moe'), kv_str('general.name', 'Qwen3 30B A3B'),
          kv_u32('qwen3moe.block_count', n_layers), kv_u32('qwen3moe.context_length', 40960),
          kv_u32('qwen3moe.embedding_length', h), kv_u32('qwen3moe.feed_forward_length', 6144),
          kv_u32('qwen3moe.expert_feed_forward_length', ff), kv_u32('qwen3moe.expert_count', n_exp),
          kv_u32('qwen3moe.expert_used_count', 8), kv_u32('qwen3moe.attention.head_count', heads),
          kv_u32('qwen3moe.attention.head_count_kv', kv_heads), kv_u32('qwen3moe.attention.key_length', hd),
          kv_u32('qwen3moe.attention.value_length', hd), kv_u32('qwen3moe.vocab_size', vocab)], g)


# The newest readers' models as their checkpoints hold them, beside the catalog's config.json
# (data/models/ID/config.json, copied): a safetensors folder in BF16 with the tensors of
# transformers' modeling file (names and shapes), and a GGUF file in BF16 with its norms, router
# and router bias in F32 as convert_hf_to_gguf.py writes them (llama-arch.cpp's names).
# test-combinations.c checks that each reads as its config.json: the same parameters, bytes and
# cache. Qwen3-VL's GGUF keys its DeepStack layers (qwen3vl.n_deepstack_layers), which the
# reader refuses by name.
CATALOG = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'data', 'models')
BF16 = (30, 1, 2)


def prod(shape):
    n = 1
    for x in shape:
        n *= x
    return n


def newest_folder(out, name, model_id, hf, gguf_kvs, g):
    d = os.path.join(out, 'newest', name)
    for sub in ('config', 'safetensors', 'gguf'):
        os.makedirs(os.path.join(d, sub), exist_ok=True)
    with open(os.path.join(CATALOG, model_id, 'config.json')) as f:
        config = f.read()
    for sub in ('config', 'safetensors'):
        with open(os.path.join(d, sub, 'config.json'), 'w') as f:
            f.write(config)
    st_file(os.path.join(d, 'safetensors', 'model.safetensors'),
            [(n, 'BF16', shape, 2 * prod(shape)) for n, shape in hf])
    gguf(os.path.join(d, 'gguf', name + '-BF16.gguf'), gguf_kvs, g)


def gguf_attention_kvs(arch, n_layers, ctx, h, heads, kv_heads, hd, vocab, ff):
    return [kv_str('general.architecture', arch), kv_str('general.name', arch),
            kv_u32(arch + '.block_count', n_layers), kv_u32(arch + '.context_length', ctx),
            kv_u32(arch + '.embedding_length', h), kv_u32(arch + '.feed_forward_length', ff),
            kv_u32(arch + '.attention.head_count', heads), kv_u32(arch + '.attention.head_count_kv', kv_heads),
            kv_u32(arch + '.attention.key_length', hd), kv_u32(arch + '.attention.value_length', hd),
            kv_u32(arch + '.vocab_size', vocab)]


def hf_attention(p, h, heads, kv_heads, hd, bias=False, qk_norm=None):
    t = [(p + 'input_layernorm.weight', [h]), (p + 'post_attention_layernorm.weight', [h]),
         (p + 'self_attn.q_proj.weight', [heads * hd, h]), (p + 'self_attn.k_proj.weight', [kv_heads * hd, h]),
         (p + 'self_attn.v_proj.weight', [kv_heads * hd, h]), (p + 'self_attn.o_proj.weight', [h, heads * hd])]
    if bias:
        t += [(p + 'self_attn.q_proj.bias', [heads * hd]), (p + 'self_attn.k_proj.bias', [kv_heads * hd]),
              (p + 'self_attn.v_proj.bias', [kv_heads * hd])]
    if qk_norm == 'head':
        t += [(p + 'self_attn.q_norm.weight', [hd]), (p + 'self_attn.k_norm.weight', [hd])]
    elif qk_norm == 'full':
        t += [(p + 'self_attn.q_norm.weight', [heads * hd]), (p + 'self_attn.k_norm.weight', [kv_heads * hd])]
    return t


def gguf_attention(p, h, heads, kv_heads, hd, bias=False, qk_norm=None, post_norm='ffn_norm'):
    g = [(p + 'attn_norm.weight', [h], F32), (p + post_norm + '.weight', [h], F32),
         (p + 'attn_q.weight', [h, heads * hd], BF16), (p + 'attn_k.weight', [h, kv_heads * hd], BF16),
         (p + 'attn_v.weight', [h, kv_heads * hd], BF16), (p + 'attn_output.weight', [heads * hd, h], BF16)]
    if bias:
        g += [(p + 'attn_q.bias', [heads * hd], F32), (p + 'attn_k.bias', [kv_heads * hd], F32),
              (p + 'attn_v.bias', [kv_heads * hd], F32)]
    if qk_norm == 'head':
        g += [(p + 'attn_q_norm.weight', [hd], F32), (p + 'attn_k_norm.weight', [hd], F32)]
    elif qk_norm == 'full':
        g += [(p + 'attn_q_norm.weight', [heads * hd], F32), (p + 'attn_k_norm.weight', [kv_heads * hd], F32)]
    return g


def hf_mlp(p, h, ff):
    return [(p + 'gate_proj.weight', [ff, h]), (p + 'up_proj.weight', [ff, h]), (p + 'down_proj.weight', [h, ff])]


def gguf_mlp(p, h, ff, suffix=''):
    return [(p + 'ffn_gate%s.weight' % suffix, [h, ff], BF16), (p + 'ffn_up%s.weight' % suffix, [h, ff], BF16),
            (p + 'ffn_down%s.weight' % suffix, [ff, h], BF16)]


def make_newest(out):
    # ERNIE 4.5 0.3B (modeling_ernie4_5.py: Llama's layer, no bias, head_dim 128, tied)
    h, heads, kv, hd, ff, vocab, n = 1024, 16, 2, 128, 3072, 103424, 18
    hf = [('model.embed_tokens.weight', [vocab, h]), ('model.norm.weight', [h])]
    g = [('token_embd.weight', [h, vocab], BF16), ('output_norm.weight', [h], F32)]
    for i in range(n):
        hf += hf_attention('model.layers.%d.' % i, h, heads, kv, hd) + hf_mlp('model.layers.%d.mlp.' % i, h, ff)
        g += gguf_attention('blk.%d.' % i, h, heads, kv, hd) + gguf_mlp('blk.%d.' % i, h, ff)
    newest_folder(out, 'ernie-4.5-0.3b', 'ernie-4.5-0.3b-pt', hf,
                  gguf_attention_kvs('ernie4_5', n, 131072, h, heads, kv, hd, vocab, ff), g)

    # ERNIE 4.5 21B-A3B (modeling_ernie4_5_moe.py): layer 0 dense, then 64 experts of 1536, two
    # shared as one MLP of 3072, the router and its correction bias (moe_statics); tied
    h, heads, kv, hd, ff, vocab, n, n_exp, eff = 2560, 20, 4, 128, 12288, 103424, 28, 64, 1536
    hf = [('model.embed_tokens.weight', [vocab, h]), ('model.norm.weight', [h])]
    g = [('token_embd.weight', [h, vocab], BF16), ('output_norm.weight', [h], F32)]
    for i in range(n):
        p, q = 'model.layers.%d.' % i, 'blk.%d.' % i
        hf += hf_attention(p, h, heads, kv, hd)
        g += gguf_attention(q, h, heads, kv, hd)
        if i == 0:
            hf += hf_mlp(p + 'mlp.', h, ff)
            g += gguf_mlp(q, h, ff)
            continue
        hf += [(p + 'mlp.gate.weight', [n_exp, h]), (p + 'mlp.moe_statics.e_score_correction_bias', [1, n_exp])]
        hf += hf_mlp(p + 'mlp.shared_experts.', h, 2 * eff)
        for e in range(n_exp):
            hf += hf_mlp(p + 'mlp.experts.%d.' % e, h, eff)
        g += [(q + 'ffn_gate_inp.weight', [h, n_exp], F32), (q + 'exp_probs_b.bias', [n_exp], F32),
              (q + 'ffn_gate_exps.weight', [h, eff, n_exp], BF16), (q + 'ffn_up_exps.weight', [h, eff, n_exp], BF16),
              (q + 'ffn_down_exps.weight', [eff, h, n_exp], BF16)]
        g += gguf_mlp(q, h, 2 * eff, '_shexp')
    kvs = gguf_attention_kvs('ernie4_5-moe', n, 131072, h, heads, kv, hd, vocab, ff)
    kvs += [kv_u32('ernie4_5-moe.expert_count', n_exp), kv_u32('ernie4_5-moe.expert_used_count', 6),
            kv_u32('ernie4_5-moe.expert_feed_forward_length', eff), kv_u32('ernie4_5-moe.expert_shared_count', 2),
            kv_u32('ernie4_5-moe.leading_dense_block_count', 1)]
    newest_folder(out, 'ernie-4.5-21b-a3b', 'ernie-4.5-21b-a3b-pt', hf, kvs, g)

    # Seed-OSS 36B (modular_seed_oss.py: Llama's layer, q, k and v biases, head_dim 128, untied;
    # llama.cpp names its second norm post_attention_norm)
    h, heads, kv, hd, ff, vocab, n = 5120, 80, 8, 128, 27648, 155136, 64
    hf = [('model.embed_tokens.weight', [vocab, h]), ('model.norm.weight', [h]), ('lm_head.weight', [vocab, h])]
    g = [('token_embd.weight', [h, vocab], BF16), ('output_norm.weight', [h], F32), ('output.weight', [h, vocab], BF16)]
    for i in range(n):
        hf += hf_attention('model.layers.%d.' % i, h, heads, kv, hd, bias=True) + hf_mlp('model.layers.%d.mlp.' % i, h, ff)
        g += gguf_attention('blk.%d.' % i, h, heads, kv, hd, bias=True, post_norm='post_attention_norm')
        g += gguf_mlp('blk.%d.' % i, h, ff)
    newest_folder(out, 'seed-oss-36b', 'seed-oss-36b-base', hf,
                  gguf_attention_kvs('seed_oss', n, 524288, h, heads, kv, hd, vocab, ff), g)

    # Qwen3-VL 2B (modeling_qwen3_vl.py): the text model under model.language_model (Qwen3's
    # layers, per-head q and k norms, tied), the vision tower under model.visual: the patch
    # embedding (Conv3d with bias), learned positions, 24 blocks (two LayerNorms, qkv, proj, a
    # two-layer MLP, all with biases), the merger (LayerNorm over the vision width) and three
    # DeepStack mergers (LayerNorm over the merged width), each two linear layers with biases
    h, heads, kv, hd, ff, vocab, n = 2048, 16, 8, 128, 6144, 151936, 28
    vh, vff, depth, merged = 1024, 4096, 24, 1024 * 4
    hf = [('model.language_model.embed_tokens.weight', [vocab, h]), ('model.language_model.norm.weight', [h])]
    for i in range(n):
        p = 'model.language_model.layers.%d.' % i
        hf += hf_attention(p, h, heads, kv, hd, qk_norm='head') + hf_mlp(p + 'mlp.', h, ff)
    hf += [('model.visual.patch_embed.proj.weight', [vh, 3, 2, 16, 16]), ('model.visual.patch_embed.proj.bias', [vh]),
           ('model.visual.pos_embed.weight', [2304, vh])]
    for i in range(depth):
        p = 'model.visual.blocks.%d.' % i
        hf += [(p + 'norm1.weight', [vh]), (p + 'norm1.bias', [vh]), (p + 'norm2.weight', [vh]), (p + 'norm2.bias', [vh]),
               (p + 'attn.qkv.weight', [3 * vh, vh]), (p + 'attn.qkv.bias', [3 * vh]),
               (p + 'attn.proj.weight', [vh, vh]), (p + 'attn.proj.bias', [vh]),
               (p + 'mlp.linear_fc1.weight', [vff, vh]), (p + 'mlp.linear_fc1.bias', [vff]),
               (p + 'mlp.linear_fc2.weight', [vh, vff]), (p + 'mlp.linear_fc2.bias', [vh])]
    for p, norm in [('model.visual.merger.', vh)] + [('model.visual.deepstack_merger_list.%d.' % k, merged) for k in range(3)]:
        hf += [(p + 'norm.weight', [norm]), (p + 'norm.bias', [norm]),
               (p + 'linear_fc1.weight', [merged, merged]), (p + 'linear_fc1.bias', [merged]),
               (p + 'linear_fc2.weight', [h, merged]), (p + 'linear_fc2.bias', [h])]
    g = [('token_embd.weight', [h, vocab], BF16), ('output_norm.weight', [h], F32)]
    for i in range(n):
        g += gguf_attention('blk.%d.' % i, h, heads, kv, hd, qk_norm='head') + gguf_mlp('blk.%d.' % i, h, ff)
    kvs = gguf_attention_kvs('qwen3vl', n, 262144, h, heads, kv, hd, vocab, ff)
    kvs += [kv_u32('qwen3vl.n_deepstack_layers', 3)]
    newest_folder(out, 'qwen3-vl-2b', 'qwen3-vl-2b-instruct', hf, kvs, g)

    # MiniMax-M2.5 (modular_minimax_m2.py), its checkpoint in FP8 blocks of 128 × 128 as its
    # quantization_config says: every linear layer in F8_E4M3 with an F32 weight_scale_inv of a
    # value a block, the router (gate), its e_score_correction_bias, the embedding, the head and the
    # norms (q_norm and k_norm over the whole projections) in BF16; 256 experts (w1, w2, w3) in
    # each of 62 layers; the multi-token prediction modules, which transformers does not load,
    # left out. Its GGUF in BF16 (convert_hf_to_gguf.py dequantizes the blocks).
    h, heads, kv, hd, ff, vocab, n, n_exp = 3072, 48, 8, 128, 1536, 200064, 62, 256

    def fp8(name, shape):
        out_f, in_f = shape
        return [(name + '.weight', 'F8_E4M3', shape, out_f * in_f),
                (name + '.weight_scale_inv', 'F32', [(out_f + 127) // 128, (in_f + 127) // 128],
                 4 * ((out_f + 127) // 128) * ((in_f + 127) // 128))]

    def bf(name, shape):
        return [(name, 'BF16', shape, 2 * prod(shape))]

    st = bf('model.embed_tokens.weight', [vocab, h]) + bf('model.norm.weight', [h]) + bf('lm_head.weight', [vocab, h])
    g = [('token_embd.weight', [h, vocab], BF16), ('output_norm.weight', [h], F32), ('output.weight', [h, vocab], BF16)]
    for i in range(n):
        p, q = 'model.layers.%d.' % i, 'blk.%d.' % i
        st += bf(p + 'input_layernorm.weight', [h]) + bf(p + 'post_attention_layernorm.weight', [h])
        st += fp8(p + 'self_attn.q_proj', [heads * hd, h]) + fp8(p + 'self_attn.k_proj', [kv * hd, h])
        st += fp8(p + 'self_attn.v_proj', [kv * hd, h]) + fp8(p + 'self_attn.o_proj', [h, heads * hd])
        st += bf(p + 'self_attn.q_norm.weight', [heads * hd]) + bf(p + 'self_attn.k_norm.weight', [kv * hd])
        st += bf(p + 'block_sparse_moe.gate.weight', [n_exp, h]) + bf(p + 'block_sparse_moe.e_score_correction_bias', [n_exp])
        for e in range(n_exp):
            x = p + 'block_sparse_moe.experts.%d.' % e
            st += fp8(x + 'w1', [ff, h]) + fp8(x + 'w2', [h, ff]) + fp8(x + 'w3', [ff, h])
        g += gguf_attention(q, h, heads, kv, hd, qk_norm='full')
        g += [(q + 'ffn_gate_inp.weight', [h, n_exp], F32), (q + 'exp_probs_b.bias', [n_exp], F32),
              (q + 'ffn_gate_exps.weight', [h, ff, n_exp], BF16), (q + 'ffn_up_exps.weight', [h, ff, n_exp], BF16),
              (q + 'ffn_down_exps.weight', [ff, h, n_exp], BF16)]
    kvs = gguf_attention_kvs('minimax-m2', n, 196608, h, heads, kv, hd, vocab, ff)
    kvs += [kv_u32('minimax-m2.expert_count', n_exp), kv_u32('minimax-m2.expert_used_count', 8),
            kv_u32('minimax-m2.expert_feed_forward_length', ff)]
    newest_folder(out, 'minimax-m2.5', 'minimax-m2.5', [], kvs, g)
    st_file(os.path.join(out, 'newest', 'minimax-m2.5', 'safetensors', 'model.safetensors'), st)


def kv_u32_array(key, values):
    return s(key) + struct.pack('<IIQ', GGUF_ARRAY, GGUF_UINT32, len(values)) + \
        b''.join(struct.pack('<I', v) for v in values)


def make_hybrid(out):
    # Granite 4.0-H Tiny as llama.cpp's convert_hf_to_gguf.py writes it (GraniteHybridModel):
    # attention.head_count_kv one value a layer, 0 for the Mamba-2 ones (layer_types in
    # data/models/granite-4.0-h-tiny/config.json); ssm.conv_kernel, inner_size (mamba_expand ×
    # hidden), state_size, time_step_rank (mamba_n_heads), group_count; the shared MLP as
    # expert_shared_feed_forward_length. A Mamba-2 layer's tensors (Mamba2Model): ssm_in h → I +
    # (I + 2GN) + H, ssm_conv1d (K × conv, with its bias), ssm_dt bias, ssm_a, ssm_d, ssm_norm
    # (I), ssm_out I → h.
    with open(os.path.join(CATALOG, 'granite-4.0-h-tiny', 'config.json')) as f:
        c = json.load(f)
    arch = 'granitehybrid'
    h, heads, kv, vocab, n = c['hidden_size'], c['num_attention_heads'], c['num_key_value_heads'], \
        c['vocab_size'], c['num_hidden_layers']
    hd = h // heads
    n_exp, used, eff, shared = c['num_local_experts'], c['num_experts_per_tok'], c['intermediate_size'], \
        c['shared_intermediate_size']
    width, state, groups, m_heads, kernel = c['mamba_expand'] * h, c['mamba_d_state'], c['mamba_n_groups'], \
        c['mamba_n_heads'], c['mamba_d_conv']
    conv = width + 2 * groups * state
    attention = [t == 'attention' for t in c['layer_types']]
    g = [('token_embd.weight', [h, vocab], BF16), ('output_norm.weight', [h], F32)]
    for i in range(n):
        q = 'blk.%d.' % i
        g += [(q + 'attn_norm.weight', [h], F32), (q + 'ffn_norm.weight', [h], F32)]
        if attention[i]:
            g += [(q + 'attn_q.weight', [h, heads * hd], BF16), (q + 'attn_k.weight', [h, kv * hd], BF16),
                  (q + 'attn_v.weight', [h, kv * hd], BF16), (q + 'attn_output.weight', [heads * hd, h], BF16)]
        else:
            g += [(q + 'ssm_in.weight', [h, width + conv + m_heads], BF16),
                  (q + 'ssm_conv1d.weight', [kernel, conv], F32), (q + 'ssm_conv1d.bias', [conv], F32),
                  (q + 'ssm_dt.bias', [m_heads], F32), (q + 'ssm_a', [1, m_heads], F32),
                  (q + 'ssm_d', [1, m_heads], F32), (q + 'ssm_norm.weight', [width // groups, groups], F32),
                  (q + 'ssm_out.weight', [width, h], BF16)]
        g += [(q + 'ffn_gate_inp.weight', [h, n_exp], F32),
              (q + 'ffn_gate_exps.weight', [h, eff, n_exp], BF16), (q + 'ffn_up_exps.weight', [h, eff, n_exp], BF16),
              (q + 'ffn_down_exps.weight', [eff, h, n_exp], BF16)]
        g += gguf_mlp(q, h, shared, '_shexp')
    kvs = [kv_str('general.architecture', arch), kv_str('general.name', 'granite-4.0-h-tiny'),
           kv_u32('general.file_type', 32),
           kv_u32(arch + '.block_count', n), kv_u32(arch + '.context_length', 1 << 20),
           kv_u32(arch + '.embedding_length', h), kv_u32(arch + '.feed_forward_length', eff),
           kv_u32(arch + '.attention.head_count', heads),
           kv_u32_array(arch + '.attention.head_count_kv', [kv if a else 0 for a in attention]),
           kv_u32(arch + '.vocab_size', vocab),
           kv_u32(arch + '.expert_count', n_exp), kv_u32(arch + '.expert_used_count', used),
           kv_u32(arch + '.expert_feed_forward_length', eff),
           kv_u32(arch + '.expert_shared_feed_forward_length', shared),
           kv_u32(arch + '.ssm.conv_kernel', kernel), kv_u32(arch + '.ssm.inner_size', width),
           kv_u32(arch + '.ssm.state_size', state), kv_u32(arch + '.ssm.time_step_rank', m_heads),
           kv_u32(arch + '.ssm.group_count', groups)]
    d = os.path.join(out, 'hybrid')
    os.makedirs(d, exist_ok=True)
    gguf(os.path.join(d, 'granite-4.0-h-tiny-BF16.gguf'), kvs, g)
    # The same model as its safetensors in BF16 (transformers' GraniteMoeHybrid names: a Mamba-2
    # layer's mamba.in_proj h → I + (I + 2GN) + H, conv1d (conv × 1 × K, with its bias),
    # dt_bias, A_log and D (H), norm (I), out_proj I → h; the experts fused in input_linear
    # (E × 2·eff × h) and output_linear; the shared MLP's input_linear 2·shared × h), beside
    # its config.json; and the same tensors without it
    t = [('model.embed_tokens.weight', [vocab, h]), ('model.norm.weight', [h])]
    for i in range(n):
        q = 'model.layers.%d.' % i
        t += [(q + 'input_layernorm.weight', [h]), (q + 'post_attention_layernorm.weight', [h])]
        if attention[i]:
            t += [(q + 'self_attn.q_proj.weight', [heads * hd, h]), (q + 'self_attn.k_proj.weight', [kv * hd, h]),
                  (q + 'self_attn.v_proj.weight', [kv * hd, h]), (q + 'self_attn.o_proj.weight', [h, heads * hd])]
        else:
            t += [(q + 'mamba.in_proj.weight', [width + conv + m_heads, h]),
                  (q + 'mamba.conv1d.weight', [conv, 1, kernel]), (q + 'mamba.conv1d.bias', [conv]),
                  (q + 'mamba.dt_bias', [m_heads]), (q + 'mamba.A_log', [m_heads]), (q + 'mamba.D', [m_heads]),
                  (q + 'mamba.norm.weight', [width]), (q + 'mamba.out_proj.weight', [h, width])]
        t += [(q + 'block_sparse_moe.router.layer.weight', [n_exp, h]),
              (q + 'block_sparse_moe.input_linear.weight', [n_exp, 2 * eff, h]),
              (q + 'block_sparse_moe.output_linear.weight', [n_exp, h, eff]),
              (q + 'shared_mlp.input_linear.weight', [2 * shared, h]),
              (q + 'shared_mlp.output_linear.weight', [h, shared])]
    st = [(name, 'BF16', shape, prod(shape) * 2) for name, shape in t]
    for folder, config in (('granite-4.0-h-tiny-safetensors', True), ('granite-4.0-h-tiny-no-config', False)):
        os.makedirs(os.path.join(d, folder), exist_ok=True)
        if config:
            with open(os.path.join(d, folder, 'config.json'), 'w') as f:
                json.dump(c, f)
        st_file(os.path.join(d, folder, 'model.safetensors'), st)
    # Falcon-H1-Tiny-90M (FalconH1Model on Mamba2Model): attention and a Mamba-2 mixer in every
    # layer, head_count_kv one count, ssm.inner_size mamba_d_ssm, time_step_rank d_inner //
    # mamba_d_head; no ssm_norm (mamba_rms_norm false), no in_proj or out_proj bias; tied
    with open(os.path.join(CATALOG, 'falcon-h1-tiny-90m-instruct', 'config.json')) as f:
        fc = json.load(f)
    fa = 'falcon-h1'
    fh, fheads, fkv, fhd, fvocab, fn, fff = fc['hidden_size'], fc['num_attention_heads'], \
        fc['num_key_value_heads'], fc['head_dim'], fc['vocab_size'], fc['num_hidden_layers'], fc['intermediate_size']
    fw, fstate, fgroups, fkernel = fc['mamba_d_ssm'], fc['mamba_d_state'], fc['mamba_n_groups'], fc['mamba_d_conv']
    fmh = fw // fc['mamba_d_head']
    fconv = fw + 2 * fgroups * fstate
    fg = [('token_embd.weight', [fh, fvocab], BF16), ('output_norm.weight', [fh], F32)]
    for i in range(fn):
        q = 'blk.%d.' % i
        fg += gguf_attention(q, fh, fheads, fkv, fhd)
        fg += [(q + 'ssm_in.weight', [fh, fw + fconv + fmh], BF16),
               (q + 'ssm_conv1d.weight', [fkernel, fconv], F32), (q + 'ssm_conv1d.bias', [fconv], F32),
               (q + 'ssm_dt.bias', [fmh], F32), (q + 'ssm_a', [1, fmh], F32), (q + 'ssm_d', [1, fmh], F32),
               (q + 'ssm_out.weight', [fw, fh], BF16)]
        fg += gguf_mlp(q, fh, fff)
    fkvs = gguf_attention_kvs(fa, fn, fc['max_position_embeddings'], fh, fheads, fkv, fhd, fvocab, fff)
    fkvs += [kv_u32('general.file_type', 32),
             kv_u32(fa + '.ssm.conv_kernel', fkernel), kv_u32(fa + '.ssm.inner_size', fw),
             kv_u32(fa + '.ssm.state_size', fstate), kv_u32(fa + '.ssm.time_step_rank', fmh),
             kv_u32(fa + '.ssm.group_count', fgroups)]
    gguf(os.path.join(d, 'falcon-h1-tiny-90m-BF16.gguf'), fkvs, fg)
    # the same file with a Mamba-2 key not read: refused by name
    gguf(os.path.join(d, 'granite-unknown-ssm-key.gguf'), kvs + [kv_u32(arch + '.ssm.dt_b_c_rms', 1)], g)
    make_qwen3_next_gguf(d)
    make_gemma3_gguf(out)


def make_gemma3_gguf(out):
    # Gemma 3 4B's text model as llama.cpp's converter writes it (Gemma3Model: the vision tower
    # and projector skipped, Gemma3VisionModel writing them to a separate mmproj file): tied
    # embeddings, sandwich norms, per-head q/k norms, a 1,024-token window on five layers of six.
    # Beside it, in a folder of its own, an mmproj file, which is not the model.
    arch, h, heads, kv, hd, ff, vocab, n = 'gemma3', 2560, 8, 4, 256, 10240, 262208, 34
    g = [('token_embd.weight', [h, vocab], BF16), ('output_norm.weight', [h], F32)]
    for i in range(n):
        q = 'blk.%d.' % i
        g += gguf_attention(q, h, heads, kv, hd, qk_norm='head', post_norm='post_attention_norm')
        g += [(q + 'ffn_norm.weight', [h], F32), (q + 'post_ffw_norm.weight', [h], F32)]
        g += gguf_mlp(q, h, ff)
    kvs = gguf_attention_kvs(arch, n, 131072, h, heads, kv, hd, vocab, ff)
    kvs += [kv_u32('general.file_type', 32), kv_u32(arch + '.attention.sliding_window', 1024)]
    d = os.path.join(out, 'gemma3')
    os.makedirs(d, exist_ok=True)
    gguf(os.path.join(d, 'gemma-3-4b-it-BF16.gguf'), kvs, g)
    gguf(os.path.join(d, 'mmproj-gemma-3-4b-it-F16.gguf'), gemma3_mmproj_kvs('gemma3'), gemma3_mmproj_tensors(h))
    make_mmproj_bad(out, h)
    make_siglip_mmprojs(out)


def siglip_mmproj(image, patch, w, n, heads, ff, patch_type, pre_ln=False):
    # a SigLIP encoder as the converter's MmprojModel writes it (names of tools/mtmd/clip-impl.h):
    # the patch kernel and its bias, the positions, the blocks with separate q, k, v, the
    # post-layernorm; matrices in F16, vectors in F32
    side = image // patch
    kvs = [kv_str('general.architecture', 'clip'), kv_str('general.type', 'mmproj'),
           kv_bool('clip.has_vision_encoder', True), kv_u32('clip.vision.image_size', image),
           kv_u32('clip.vision.patch_size', patch), kv_u32('clip.vision.embedding_length', w),
           kv_u32('clip.vision.feed_forward_length', ff), kv_u32('clip.vision.block_count', n),
           kv_u32('clip.vision.attention.head_count', heads), kv_bool('clip.use_gelu', True)]
    t = [('v.patch_embd.weight', [patch, patch, 3, w], patch_type), ('v.patch_embd.bias', [w], F32),
         ('v.position_embd.weight', [w, side * side], patch_type)]
    if pre_ln:
        t += [('v.pre_ln.weight', [w], F32), ('v.pre_ln.bias', [w], F32)]
    for i in range(n):
        q = 'v.blk.%d.' % i
        for m in ('attn_q', 'attn_k', 'attn_v', 'attn_out'):
            t += [(q + m + '.weight', [w, w], F16), (q + m + '.bias', [w], F32)]
        for m in ('ln1', 'ln2'):
            t += [(q + m + '.weight', [w], F32), (q + m + '.bias', [w], F32)]
        t += [(q + 'ffn_up.weight', [w, ff], F16), (q + 'ffn_up.bias', [ff], F32),
              (q + 'ffn_down.weight', [ff, w], F16), (q + 'ffn_down.bias', [w], F32)]
    t += [('v.post_ln.weight', [w], F32), ('v.post_ln.bias', [w], F32)]
    return kvs, t


def make_siglip_mmprojs(out):
    # Projectors on SigLIP other than Gemma 3's (tools/mtmd/models/siglip.cpp), as the converter
    # writes them: idefics3 (conversion/smolvlm.py: scale_factor, the embeddings forced to F32)
    # with a 512-pixel, 16-patch encoder of width 768, 12 blocks of 12 heads, MLP 3072, pixel
    # shuffle 4 and a 576-wide text model; one at 384 pixels and patch 14 (27 patches a side, the
    # convolution's floor) with width 1152, 27 blocks of 16 heads, MLP 4304, shuffle 3, text 2048;
    # janus_pro (conversion/januspro.py: the aligner's fc1 as mm.0, hidden_layers.0 as mm.1) with
    # a 384-pixel, 16-patch encoder of width 1024, 24 blocks of 16 heads, MLP 4096, an aligner of
    # 4096. The shapes are test cases of the graph, not published models' files.
    d = os.path.join(out, 'mmproj')
    os.makedirs(d, exist_ok=True)
    kvs, t = siglip_mmproj(512, 16, 768, 12, 12, 3072, F32)
    gguf(os.path.join(d, 'idefics3-512.gguf'),
         kvs + [kv_str('clip.projector_type', 'idefics3'), kv_u32('clip.vision.projector.scale_factor', 4)],
         t + [('mm.model.fc.weight', [768 * 16, 576], F16)])
    kvs, t = siglip_mmproj(384, 14, 1152, 27, 16, 4304, F32)
    gguf(os.path.join(d, 'idefics3-384.gguf'),
         kvs + [kv_str('clip.projector_type', 'idefics3'), kv_u32('clip.vision.projector.scale_factor', 3)],
         t + [('mm.model.fc.weight', [1152 * 9, 2048], F16)])
    kvs, t = siglip_mmproj(384, 16, 1024, 24, 16, 4096, F16)
    gguf(os.path.join(d, 'janus-pro.gguf'), kvs + [kv_str('clip.projector_type', 'janus_pro')],
         t + [('mm.0.weight', [1024, 4096], F16), ('mm.0.bias', [4096], F32),
              ('mm.1.weight', [4096, 4096], F16), ('mm.1.bias', [4096], F32)])
    # lfm2 (a 16-patch encoder of width 768, 12 blocks of 12 heads, MLP 3072, positions for a
    # 16 × 16 grid in F32, shuffle 2, the input LayerNorm, mm.1 to 24576, wide enough for the
    # projector to hold the peak with flash attention, mm.2 to 1024): the warm-up grid is
    # 16 × n_merge a side, the positions resized to it; the same with F16 positions
    # (ggml_interpolate takes f32 only) is not followed
    lfm2 = [('mm.input_norm.weight', [3072], F32), ('mm.input_norm.bias', [3072], F32),
            ('mm.1.weight', [3072, 24576], F16), ('mm.1.bias', [24576], F32),
            ('mm.2.weight', [24576, 1024], F16), ('mm.2.bias', [1024], F32)]
    kvs, t = siglip_mmproj(256, 16, 768, 12, 12, 3072, F32)
    gguf(os.path.join(d, 'lfm2.gguf'),
         kvs + [kv_str('clip.projector_type', 'lfm2'), kv_u32('clip.vision.projector.scale_factor', 2)],
         t + lfm2)
    kvs, t = siglip_mmproj(256, 16, 768, 2, 12, 3072, F16)
    gguf(os.path.join(d, 'lfm2-f16-positions.gguf'),
         kvs + [kv_str('clip.projector_type', 'lfm2'), kv_u32('clip.vision.projector.scale_factor', 2)],
         t + lfm2)
    # idefics3 without its scale factor (llama.cpp asserts it above 1) and janus_pro without an
    # aligner bias (clip_model_loader requires it): not followed, the warning names the type
    kvs, t = siglip_mmproj(512, 16, 768, 2, 12, 3072, F32)
    gguf(os.path.join(d, 'idefics3-no-scale.gguf'), kvs + [kv_str('clip.projector_type', 'idefics3')],
         t + [('mm.model.fc.weight', [768, 576], F16)])
    kvs, t = siglip_mmproj(384, 16, 1024, 2, 16, 4096, F16)
    gguf(os.path.join(d, 'janus-pro-no-bias.gguf'), kvs + [kv_str('clip.projector_type', 'janus_pro')],
         t + [('mm.0.weight', [1024, 4096], F16), ('mm.1.weight', [4096, 4096], F16), ('mm.1.bias', [4096], F32)])
    make_qwen2vl_mmprojs(d)


def qwen2vl_mmproj(projector, w, n, heads, ff, out, gated, rms, extra_kvs=()):
    # A Qwen2-VL / Qwen2.5-VL vision tower as conversion/qwenvl.py writes it: the Conv3D patch
    # kernel split in two 14 × 14 kernels (v.patch_embd.weight and .weight.1, no bias), the fused
    # qkv split into q, k, v with their biases, the output with its bias, the norms (LayerNorm with
    # biases for qwen2vl, RMSNorm weights for qwen2.5vl), the MLP (fc1/fc2 for qwen2vl; gate, up,
    # down with biases for qwen2.5vl), the merger's ln_q as v.post_ln and its mlp.0 / mlp.2 as
    # mm.0 / mm.2 (4 · width in). Matrices F16, vectors F32.
    kvs = [kv_str('general.architecture', 'clip'), kv_str('general.type', 'mmproj'),
           kv_bool('clip.has_vision_encoder', True), kv_str('clip.projector_type', projector),
           kv_u32('clip.vision.image_size', 560), kv_u32('clip.vision.patch_size', 14),
           kv_u32('clip.vision.embedding_length', w), kv_u32('clip.vision.feed_forward_length', ff),
           kv_u32('clip.vision.block_count', n), kv_u32('clip.vision.attention.head_count', heads),
           kv_u32('clip.vision.projection_dim', out),
           kv_f32('clip.vision.attention.layer_norm_epsilon', 1e-6),
           kv_f32_array('clip.vision.image_mean', [0.48145466, 0.4578275, 0.40821073]),
           kv_f32_array('clip.vision.image_std', [0.26862954, 0.26130258, 0.27577711])] + list(extra_kvs)
    t = [('v.patch_embd.weight', [14, 14, 3, w], F16), ('v.patch_embd.weight.1', [14, 14, 3, w], F16)]
    norms = ('weight',) if rms else ('weight', 'bias')
    for i in range(n):
        q = 'v.blk.%d.' % i
        for m in ('attn_q', 'attn_k', 'attn_v', 'attn_out'):
            t += [(q + m + '.weight', [w, w], F16), (q + m + '.bias', [w], F32)]
        for m in ('ln1', 'ln2'):
            t += [(q + m + '.' + x, [w], F32) for x in norms]
        for m in (('ffn_gate', 'ffn_up') if gated else ('ffn_up',)):
            t += [(q + m + '.weight', [w, ff], F16), (q + m + '.bias', [ff], F32)]
        t += [(q + 'ffn_down.weight', [ff, w], F16), (q + 'ffn_down.bias', [w], F32)]
    t += [('v.post_ln.' + x, [w], F32) for x in norms]
    t += [('mm.0.weight', [4 * w, 4 * w], F16), ('mm.0.bias', [4 * w], F32),
          ('mm.2.weight', [4 * w, out], F16), ('mm.2.bias', [out], F32)]
    return kvs, t


def make_qwen2vl_mmprojs(d):
    # The vision towers of transformers' defaults (configuration_qwen2_vl.py: depth 32, embed_dim
    # 1280, mlp_ratio 4, 16 heads, hidden_size 3584; configuration_qwen2_5_vl.py: depth 32, width
    # 1280, intermediate 3420, 16 heads, out_hidden_size 3584, fullatt_block_indexes 7, 15, 23, 31,
    # which the converter writes as n_wa_pattern 8), which Qwen2-VL-7B and Qwen2.5-VL-7B use; a
    # 4-block Qwen2.5-VL tower without n_wa_pattern (clip_model_loader requires it) and one with a
    # patch bias (the graph asserts none) are not followed
    kvs, t = qwen2vl_mmproj('qwen2vl_merger', 1280, 32, 16, 5120, 3584, False, False, [kv_bool('clip.use_gelu', True)])
    gguf(os.path.join(d, 'qwen2vl.gguf'), kvs, t)
    kvs, t = qwen2vl_mmproj('qwen2.5vl_merger', 1280, 32, 16, 3420, 3584, True, True,
                            [kv_bool('clip.use_silu', True), kv_u32('clip.vision.n_wa_pattern', 8)])
    gguf(os.path.join(d, 'qwen2.5vl.gguf'), kvs, t)
    kvs, t = qwen2vl_mmproj('qwen2.5vl_merger', 1280, 4, 16, 3420, 3584, True, True, [kv_bool('clip.use_silu', True)])
    gguf(os.path.join(d, 'qwen2.5vl-no-pattern.gguf'), kvs, t)
    kvs, t = qwen2vl_mmproj('qwen2vl_merger', 1280, 4, 16, 5120, 3584, False, False, [kv_bool('clip.use_gelu', True)])
    gguf(os.path.join(d, 'qwen2vl-patch-bias.gguf'), kvs, t + [('v.patch_embd.bias', [1280], F32)])
    make_qwen3vl_mmprojs(d)


def qwen3vl_mmproj(w, n, heads, ff, out, deepstack, pos_type=F32):
    # A Qwen3-VL vision tower as conversion/qwen3vl.py writes it: the Conv3D patch kernel split in
    # two 16 × 16 kernels and its bias, the learned positions (2304: a 48 × 48 grid), blocks with a
    # fused qkv and LayerNorms with biases, a plain GELU MLP, the merger's norm as v.post_ln and its
    # linear_fc1 / linear_fc2 as mm.0 / mm.2, and each deepstack merger as v.deepstack.N (N the
    # block it follows: deepstack_visual_indexes). Matrices F16, vectors F32.
    kvs = [kv_str('general.architecture', 'clip'), kv_str('general.type', 'mmproj'),
           kv_bool('clip.has_vision_encoder', True), kv_str('clip.projector_type', 'qwen3vl_merger'),
           kv_u32('clip.vision.image_size', 768), kv_u32('clip.vision.patch_size', 16),
           kv_u32('clip.vision.embedding_length', w), kv_u32('clip.vision.feed_forward_length', ff),
           kv_u32('clip.vision.block_count', n), kv_u32('clip.vision.attention.head_count', heads),
           kv_u32('clip.vision.projection_dim', out), kv_bool('clip.use_gelu', True),
           kv_u32('clip.vision.spatial_merge_size', 2),
           kv_f32('clip.vision.attention.layer_norm_epsilon', 1e-6),
           kv_f32_array('clip.vision.image_mean', [0.5, 0.5, 0.5]),
           kv_f32_array('clip.vision.image_std', [0.5, 0.5, 0.5])]
    t = [('v.patch_embd.weight', [16, 16, 3, w], F16), ('v.patch_embd.weight.1', [16, 16, 3, w], F16),
         ('v.patch_embd.bias', [w], F32), ('v.position_embd.weight', [w, 2304], pos_type)]
    for i in range(n):
        q = 'v.blk.%d.' % i
        t += [(q + 'attn_qkv.weight', [w, 3 * w], F16), (q + 'attn_qkv.bias', [3 * w], F32),
              (q + 'attn_out.weight', [w, w], F16), (q + 'attn_out.bias', [w], F32)]
        for m in ('ln1', 'ln2'):
            t += [(q + m + '.weight', [w], F32), (q + m + '.bias', [w], F32)]
        t += [(q + 'ffn_up.weight', [w, ff], F16), (q + 'ffn_up.bias', [ff], F32),
              (q + 'ffn_down.weight', [ff, w], F16), (q + 'ffn_down.bias', [w], F32)]
    t += [('v.post_ln.weight', [w], F32), ('v.post_ln.bias', [w], F32),
          ('mm.0.weight', [4 * w, 4 * w], F16), ('mm.0.bias', [4 * w], F32),
          ('mm.2.weight', [4 * w, out], F16), ('mm.2.bias', [out], F32)]
    for i in deepstack:
        q = 'v.deepstack.%d.' % i
        t += [(q + 'norm.weight', [4 * w], F32), (q + 'norm.bias', [4 * w], F32),
              (q + 'fc1.weight', [4 * w, 4 * w], F16), (q + 'fc1.bias', [4 * w], F32),
              (q + 'fc2.weight', [4 * w, out], F16), (q + 'fc2.bias', [out], F32)]
    return kvs, t


def make_qwen3vl_mmprojs(d):
    # Qwen3-VL-8B-Instruct's vision tower (its config.json, data/models/qwen3-vl-8b-instruct:
    # depth 27, width 1152, MLP 4304, 16 heads, out 4096, patch 16, 2304 positions, deepstack
    # after blocks 8, 16 and 24); a 4-block tower without deepstack; one with F16 positions, which
    # the 92 × 92 warm-up grid needs resized (ggml_interpolate takes f32 only): not followed
    kvs, t = qwen3vl_mmproj(1152, 27, 16, 4304, 4096, (8, 16, 24))
    gguf(os.path.join(d, 'qwen3vl.gguf'), kvs, t)
    kvs, t = qwen3vl_mmproj(1152, 4, 16, 4304, 4096, ())
    gguf(os.path.join(d, 'qwen3vl-no-deepstack.gguf'), kvs, t)
    kvs, t = qwen3vl_mmproj(1152, 4, 16, 4304, 4096, (), F16)
    gguf(os.path.join(d, 'qwen3vl-f16-positions.gguf'), kvs, t)
    make_pixtral_mmprojs(d)


def make_pixtral_mmprojs(d):
    # Pixtral's vision encoder as the converter writes it (names of clip-impl.h): the patch kernel
    # without bias, ln_pre as v.pre_ln, blocks of RMSNorm weights, separate q, k, v, o without
    # biases, a gated SiLU MLP; the [IMG_BREAK] embedding; mm.1 and mm.2. Mistral 3's adds
    # spatial_merge_size 2, mm.input_norm and mm.patch_merger. Shapes: width 1024, 24 blocks of 16
    # heads, MLP 4096, patch 16 (Pixtral) or 14 (Mistral 3), text width 5120: test cases of the
    # graph, as the siglip ones are.
    def pixtral(patch, merge, text, biases):
        w, n, ff = 1024, 24, 4096
        kvs = [kv_str('general.architecture', 'clip'), kv_str('general.type', 'mmproj'),
               kv_bool('clip.has_vision_encoder', True), kv_str('clip.projector_type', 'pixtral'),
               kv_u32('clip.vision.image_size', 1024), kv_u32('clip.vision.patch_size', patch),
               kv_u32('clip.vision.embedding_length', w), kv_u32('clip.vision.feed_forward_length', ff),
               kv_u32('clip.vision.block_count', n), kv_u32('clip.vision.attention.head_count', 16),
               kv_u32('clip.vision.projection_dim', text), kv_bool('clip.use_silu', True),
               kv_f32('clip.vision.attention.layer_norm_epsilon', 1e-5),
               kv_f32_array('clip.vision.image_mean', [0.5, 0.5, 0.5]),
               kv_f32_array('clip.vision.image_std', [0.5, 0.5, 0.5])]
        if merge > 1:
            kvs += [kv_u32('clip.vision.spatial_merge_size', merge)]
        t = [('v.patch_embd.weight', [patch, patch, 3, w], F16), ('v.pre_ln.weight', [w], F32),
             ('v.token_embd.img_break', [text], F32)]
        for i in range(n):
            q = 'v.blk.%d.' % i
            t += [(q + m + '.weight', [w, w], F16) for m in ('attn_q', 'attn_k', 'attn_v', 'attn_out')]
            t += [(q + 'ln1.weight', [w], F32), (q + 'ln2.weight', [w], F32),
                  (q + 'ffn_gate.weight', [w, ff], F16), (q + 'ffn_up.weight', [w, ff], F16),
                  (q + 'ffn_down.weight', [ff, w], F16)]
        t += [('mm.1.weight', [w, text], F16), ('mm.2.weight', [text, text], F16)]
        if biases:
            t += [('mm.1.bias', [text], F32), ('mm.2.bias', [text], F32)]
        if merge > 1:
            t += [('mm.input_norm.weight', [w], F32), ('mm.patch_merger.weight', [w * merge * merge, w], F16)]
        return kvs, t
    kvs, t = pixtral(16, 1, 5120, True)
    gguf(os.path.join(d, 'pixtral.gguf'), kvs, t)
    kvs, t = pixtral(14, 2, 5120, False)
    gguf(os.path.join(d, 'mistral3.gguf'), kvs, t)


def kv_bool(key, value):
    return s(key) + struct.pack('<IB', GGUF_BOOL, 1 if value else 0)


def gemma3_mmproj_kvs(projector, vision=True):
    kvs = [kv_str('general.architecture', 'clip'), kv_str('general.type', 'mmproj'),
           kv_str('clip.projector_type', projector), kv_bool('clip.has_vision_encoder', vision),
           kv_u32('clip.vision.image_size', 896), kv_u32('clip.vision.patch_size', 14),
           kv_u32('clip.vision.embedding_length', 1152), kv_u32('clip.vision.feed_forward_length', 4304),
           kv_u32('clip.vision.block_count', 27), kv_u32('clip.vision.attention.head_count', 16),
           kv_u32('clip.vision.projection_dim', 2560)]
    return kvs


def gemma3_mmproj_tensors(h):
    # Gemma 3's SigLIP encoder and projector as llama.cpp's converter writes them
    # (Gemma3VisionModel; names of tools/mtmd/clip-impl.h): a 14 × 14 patch embedding of 3
    # channels, 4,096 positions (896 / 14 squared), 27 blocks of width 1152 and MLP 4304, the
    # post-layernorm, and the projector: the soft embedding norm and the input projection to the
    # text model's width, whose weight the converter keeps as transformers holds it (1152 × h:
    # ggml's ne [h, 1152], which clip.cpp transposes). Matrices in F16, vectors in F32 (--outtype f16).
    w, ff, n = 1152, 4304, 27
    t = [('v.patch_embd.weight', [14, 14, 3, w], F16), ('v.patch_embd.bias', [w], F32),
         ('v.position_embd.weight', [w, 4096], F16)]
    for i in range(n):
        q = 'v.blk.%d.' % i
        for m in ('attn_q', 'attn_k', 'attn_v', 'attn_out'):
            t += [(q + m + '.weight', [w, w], F16), (q + m + '.bias', [w], F32)]
        for m in ('ln1', 'ln2'):
            t += [(q + m + '.weight', [w], F32), (q + m + '.bias', [w], F32)]
        t += [(q + 'ffn_up.weight', [w, ff], F16), (q + 'ffn_up.bias', [ff], F32),
              (q + 'ffn_down.weight', [ff, w], F16), (q + 'ffn_down.bias', [w], F32)]
    t += [('v.post_ln.weight', [w], F32), ('v.post_ln.bias', [w], F32),
          ('mm.soft_emb_norm.weight', [w], F32), ('mm.input_projection.weight', [h, w], F16)]
    return t


def make_mmproj_bad(out, h):
    # Files --mmproj refuses: a model (not a projector), a projector type llama.cpp does not
    # know, a projector with neither a vision nor an audio encoder; and one it takes
    d = os.path.join(out, 'mmproj')
    os.makedirs(d, exist_ok=True)
    gguf(os.path.join(d, 'a-model.gguf'), llama_kvs(), llama_tensors(2, 256, 256, 512, 1000))
    gguf(os.path.join(d, 'unknown-projector.gguf'), gemma3_mmproj_kvs('gemma9'), gemma3_mmproj_tensors(h)[:3])
    gguf(os.path.join(d, 'no-encoder.gguf'), gemma3_mmproj_kvs('gemma3', vision=False),
         gemma3_mmproj_tensors(h)[:3])
    # a projector llama.cpp knows whose graph the estimate does not follow (its weights only)
    gguf(os.path.join(d, 'mlp.gguf'), gemma3_mmproj_kvs('mlp'), gemma3_mmproj_tensors(h)[:3])


def make_qwen3_next_gguf(d):
    # Qwen3-Next-80B-A3B's GGUF as llama.cpp's converter writes it (conversion/qwen.py,
    # Qwen3NextModel on Qwen2MoeModel; tensors as src/models/qwen3next.cpp loads them):
    # ssm.conv_kernel linear_conv_kernel_dim, ssm.state_size linear_key_head_dim, ssm.group_count
    # linear_num_key_heads, ssm.time_step_rank linear_num_value_heads, ssm.inner_size
    # linear_value_head_dim × linear_num_value_heads, full_attention_interval; the experts'
    # expert_feed_forward_length and the shared expert's expert_shared_feed_forward_length. A
    # full-attention layer, every interval-th: attn_q h → 2 × heads × head (queries and gate),
    # attn_k, attn_v, attn_output, attn_q_norm, attn_k_norm; the others Gated DeltaNet: attn_qkv
    # h → 2·Kd + Vd, attn_gate h → Vd, ssm_conv1d (K × (2·Kd + Vd)), ssm_dt bias and ssm_a (Hv),
    # ssm_ba h → 2·Hv, ssm_norm (value head), ssm_out Vd → h. Every layer: attn_norm,
    # post_attention_norm, the router, the experts and the gated shared expert. MTP layers are
    # not converted.
    with open(os.path.join(CATALOG, 'qwen3-next-80b-a3b-instruct', 'config.json')) as f:
        c = json.load(f)
    arch = 'qwen3next'
    h, heads, kv, hd, vocab, n = c['hidden_size'], c['num_attention_heads'], c['num_key_value_heads'], \
        c['head_dim'], c['vocab_size'], c['num_hidden_layers']
    n_exp, used, eff, shared = c['num_experts'], c['num_experts_per_tok'], c['moe_intermediate_size'], \
        c['shared_expert_intermediate_size']
    kernel, key, k_heads, v_heads, value = c['linear_conv_kernel_dim'], c['linear_key_head_dim'], \
        c['linear_num_key_heads'], c['linear_num_value_heads'], c['linear_value_head_dim']
    interval = c['full_attention_interval']
    kd, vd = key * k_heads, value * v_heads
    g = [('token_embd.weight', [h, vocab], BF16), ('output_norm.weight', [h], F32),
         ('output.weight', [h, vocab], BF16)]
    for i in range(n):
        q = 'blk.%d.' % i
        g += [(q + 'attn_norm.weight', [h], F32), (q + 'post_attention_norm.weight', [h], F32)]
        if (i + 1) % interval == 0:
            g += [(q + 'attn_q.weight', [h, 2 * heads * hd], BF16), (q + 'attn_k.weight', [h, kv * hd], BF16),
                  (q + 'attn_v.weight', [h, kv * hd], BF16), (q + 'attn_output.weight', [heads * hd, h], BF16),
                  (q + 'attn_q_norm.weight', [hd], F32), (q + 'attn_k_norm.weight', [hd], F32)]
        else:
            g += [(q + 'attn_qkv.weight', [h, 2 * kd + vd], BF16), (q + 'attn_gate.weight', [h, vd], BF16),
                  (q + 'ssm_conv1d.weight', [kernel, 2 * kd + vd], F32), (q + 'ssm_dt.bias', [v_heads], F32),
                  (q + 'ssm_a', [v_heads], F32), (q + 'ssm_ba.weight', [h, 2 * v_heads], BF16),
                  (q + 'ssm_norm.weight', [value], F32), (q + 'ssm_out.weight', [vd, h], BF16)]
        g += [(q + 'ffn_gate_inp.weight', [h, n_exp], F32),
              (q + 'ffn_gate_exps.weight', [h, eff, n_exp], BF16), (q + 'ffn_up_exps.weight', [h, eff, n_exp], BF16),
              (q + 'ffn_down_exps.weight', [eff, h, n_exp], BF16), (q + 'ffn_gate_inp_shexp.weight', [h], F32)]
        g += gguf_mlp(q, h, shared, '_shexp')
    kvs = gguf_attention_kvs(arch, n, c['max_position_embeddings'], h, heads, kv, hd, vocab, c['intermediate_size'])
    kvs += [kv_u32('general.file_type', 32),
            kv_u32(arch + '.expert_count', n_exp), kv_u32(arch + '.expert_used_count', used),
            kv_u32(arch + '.expert_feed_forward_length', eff),
            kv_u32(arch + '.expert_shared_feed_forward_length', shared),
            kv_u32(arch + '.ssm.conv_kernel', kernel), kv_u32(arch + '.ssm.state_size', key),
            kv_u32(arch + '.ssm.group_count', k_heads), kv_u32(arch + '.ssm.time_step_rank', v_heads),
            kv_u32(arch + '.ssm.inner_size', vd), kv_u32(arch + '.full_attention_interval', interval),
            kv_u32(arch + '.rope.dimension_count', int(hd * c['partial_rotary_factor']))]
    gguf(os.path.join(d, 'qwen3-next-80b-a3b-BF16.gguf'), kvs, g)
    # the same file with value heads wider than the key heads, which llama.cpp does not load
    bad = [k for k in kvs if not k.startswith(s(arch + '.ssm.inner_size'))]
    gguf(os.path.join(d, 'qwen3-next-inner-size.gguf'), bad + [kv_u32(arch + '.ssm.inner_size', 2 * vd)], g)


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    make_gguf(out)
    make_safetensors(out)
    make_configs(out)
    make_llama3_8b(out)
    make_qwen3_moe(out)
    make_newest(out)
    make_hybrid(out)


if __name__ == '__main__':
    main()
