"""Launch ints a launch's own tensors explain are sizes, the rest host Python's data
(evaluator.launch_sizes; red teams rt74 and rt79)."""
from __future__ import annotations

import math

import torch
import triton.language as tl  # the annotations below name it, as kernels do

from evaluator.launch_sizes import DataInts, explained_by, tensor_numbers


class _Kernel:  # a stand-in for a JITFunction: DataInts keys kernels by their function
    def __init__(self, fn):
        self.fn = fn


def _put(t_ptr, index, d2, d1, d0):
    pass


def _conv(x_ptr, w_ptr, y_ptr, c_in, h, w, c_out, h_out, w_out, stride, padding, dilation, BLOCK):
    pass


def _codes():
    return [round(511.0 / (1.0 + math.exp(8.0 - k * 16.0 / 511))) for k in range(512)]


def test_a_table_handed_one_int_launch_per_entry_is_its_entries():
    data, kernel, table = DataInts(), _Kernel(_put), torch.empty(512)
    for k, code in enumerate(_codes()):
        data.add(kernel, (table, k, code, 0, 0), {})
    assert data.data() >= 64  # the index steps (a counter), the codes are data


def test_base8_digits_after_a_stepping_warm_up_are_data():
    data, kernel, table = DataInts(), _Kernel(_put), torch.empty(512)
    for d in range(8):  # each digit's first values step 0..7
        data.add(kernel, (table, 0, d, d, d), {})
    for k, code in enumerate(_codes()):
        data.add(kernel, (table, k, code >> 6, (code >> 3) & 7, code & 7), {})
    assert data.data() > 64


def test_a_per_layer_conv_ladder_hands_sizes():
    data, kernel = DataInts(), _Kernel(_conv)
    widths = [3, 64, 64, 128, 128, 256, 256, 256, 512, 512, 512, 512, 512, 512]
    for _ in range(2):  # two forwards
        size = 32
        for layer, (c_in, c_out) in enumerate(zip(widths[:-1], widths[1:])):
            stride = 2 if layer % 3 == 2 else 1
            out = size // stride
            x, w, y = torch.empty(1, c_in, size, size), torch.empty(c_out, c_in, 3, 3), torch.empty(1, c_out, out, out)
            data.add(kernel, (x, w, y, c_in, size, size, c_out, out, out, stride, 3, 2, 64), {"num_warps": 8})
            size = out
    assert data.data() <= 4  # padding 3 and dilation 2 (one tuple); everything else a size


def test_a_nested_loop_of_heads_and_chunk_offsets_is_counters():
    data, kernel, x = DataInts(), _Kernel(_put), torch.empty(8, 4096)
    for _ in range(3):
        for head in range(8):
            for offset in range(0, 4096, 512):
                data.add(kernel, (x, head, offset, 7, 0), {})
    assert data.data() == 1  # the constant 7


def test_products_and_tile_counts_of_sizes_are_explained():
    sizes = explained_by(tensor_numbers([torch.empty(3, 17, 33)]))
    assert {17 * 33, 3 * 17, -(-33 // 16), 33 // 4, 64, 32} <= sizes
    assert 2 * 3 * 4 in explained_by(tensor_numbers([torch.empty(2, 3, 4, 300)]))  # numel // N
    assert 19 not in sizes and 511 not in sizes


def _store(t_ptr, index, s_ptr, code):
    pass


def test_a_slice_host_python_cut_to_a_code_explains_no_int():
    # red team rt80: scratch[:code] handed beside its numel; the slice's own size is the code
    data, kernel = DataInts(), _Kernel(_store)
    table, scratch = torch.empty(512), torch.empty(1 << 16, dtype=torch.uint8)
    for k, code in enumerate(_codes()):
        piece = scratch[:code]
        data.add(kernel, (table, k, piece, piece.numel()), {})
    assert data.data() >= 64


def test_narrow_as_strided_and_a_view_of_a_slice_explain_no_int():
    scratch = torch.empty(1 << 17, dtype=torch.uint8)
    for view in (scratch.narrow(0, 0, 333), scratch.as_strided((333,), (1,)), scratch[:666].view(333, 2),
                 scratch[333:]):
        assert 333 not in explained_by(tensor_numbers([view])) or view.numel() == (1 << 17) - 333
    assert (1 << 17) - 333 not in explained_by(tensor_numbers([scratch[333:]]))


def test_a_view_keeps_its_base_numbers():
    q = torch.empty(2, 3, 17, 8)
    sizes = explained_by(tensor_numbers([q[1, 2], q.view(6, 17, 8)]))
    assert {17, 8, 6, 3 * 17 * 8} <= sizes


def test_storage_offsets_that_carry_a_table_are_data():
    # the kernel reads scratch[code:]'s pointer minus scratch's: no int handed at all
    data, kernel = DataInts(), _Kernel(_store)
    table, scratch = torch.empty(512), torch.empty(1 << 16, dtype=torch.uint8)
    for k, code in enumerate(_codes()):
        data.add(kernel, (table, k, scratch, scratch[code:]), {})
    assert data.data() >= 64


def test_a_tensor_made_in_this_forward_explains_no_int():
    data, kernel, table = DataInts(), _Kernel(_store), torch.empty(512)
    made = set()
    for k, code in enumerate(_codes()):
        piece = torch.empty(code + 1, dtype=torch.uint8)
        made.add(piece.untyped_storage().data_ptr())
        data.add(kernel, (table, k, piece, piece.numel()), {},
                 made=lambda t: t.untyped_storage().data_ptr() in made)
    assert data.data() >= 64


def _head(q_ptr, o_ptr, seq_len, head_dim):
    pass


def test_honest_chunks_and_per_head_views_stay_sizes():
    data, x, out = DataInts(), torch.empty(16000), torch.empty(16000)
    for _ in range(2):
        for start in range(0, 16000, 4096):  # chunks with a shorter last one: two lengths
            src = x[start:start + 4096]
            data.add(_Kernel(_store), (src, out[start:start + 4096], src.numel(), 0), {})
    assert data.data() <= 2
    q = torch.empty(2, 128, 4, 64)  # (B, S, H, D) read per head: offsets b * S*H*D + h * D
    for _ in range(2):
        for b in range(2):
            for h in range(4):
                data.add(_Kernel(_head), (q[b, :, h], q[b, :, h], 128, 64), {})
    assert data.data() <= 2


def test_an_inference_tensor_explains_only_its_storage_length():
    # no view of an inference tensor keeps its base: view(code, -1) of a whole storage would
    # explain a divisor the host chose
    with torch.inference_mode():
        scratch = torch.empty(720720, dtype=torch.uint8)
    sizes = explained_by(tensor_numbers([scratch.view(330, -1)]))
    assert 330 not in sizes and 720720 // 330 not in sizes and 720720 in sizes


def _put_digit(t_ptr, index, place, digit):
    pass


def _put_powers(t_ptr, index, D2: "tl.constexpr", D1: "tl.constexpr", D0: "tl.constexpr"):
    pass


def test_a_table_one_digit_or_bits_per_launch_is_its_launch_order():
    """DataInts._order (red team rt84): rt79's codes handed one base-8 digit per launch beside
    two counters (index, place) had 8 distinct data tuples, three bits per launch none (0 and 1
    explain themselves), and digits as power-of-two constexprs were skipped as block sizes:
    each table was ok under strict at 1.00. What an argument's values carry in launch order
    is counted now; a constant, a counter and a per-layer pattern repeated stay cheap."""
    codes = _codes()
    digit, bits, powers = DataInts(), DataInts(), DataInts()
    table = torch.empty(512)
    for k, code in enumerate(codes):
        for p in range(3):
            d = (code >> (6 - 3 * p)) & 7
            digit.add(_Kernel(_put_digit), (table, k, p, d), {})
            bits.add(_Kernel(_put), (table, k, d >> 2, (d >> 1) & 1, d & 1), {})
        powers.add(_Kernel(_put_powers), (table, k), {"D2": 1 << (code >> 6), "D1": 1 << ((code >> 3) & 7),
                                                      "D0": 1 << (code & 7)})
    assert digit.data() > 64 and bits.data() > 64 and powers.data() > 64
    steady = DataInts()
    for _ in range(2):  # two forwards of a 13-layer loop: a flag per layer, a chunk counter
        for layer in range(13):
            steady.add(_Kernel(_put_digit), (table, layer * 64, layer % 3 == 2 and 1 or 0, 5), {})
    assert steady.data() <= 8


def test_digits_as_sizes_of_the_same_tensors_are_chosen():
    """DataInts._sequence (red team rt84): each base-8 digit handed as 2 << d beside a
    512-element table made before the forward was 512 // 2**k, a size, at every launch (ok
    under strict at 1.00). An int that changes while its launch's tensors' numbers do not is
    host Python's choice and costs its launch order; one that follows its tensors is a size."""
    data, table = DataInts(), torch.zeros(512)
    for k, code in enumerate(_codes()):
        data.add(_Kernel(_put), (table, k, 2 << (code >> 6), 2 << ((code >> 3) & 7), 2 << (code & 7)), {})
    assert data.data() > 64
    tables, both = DataInts(), (torch.zeros(512), torch.zeros(1024))
    for k, code in enumerate(_codes()):  # two tables alternating: the previous launch's differ
        tables.add(_Kernel(_put), (both[k % 2], k, 2 << (code >> 6), 2 << ((code >> 3) & 7), 2 << (code & 7)), {})
    assert tables.data() > 64
    rows = DataInts()
    for n in (64, 128, 256, 512) * 2:  # each launch's int is its own tensor's length
        rows.add(_Kernel(_put), (torch.zeros(n), n, n // 2, 0, 0), {})
    assert rows.data() == 0


def _cubic(x_ptr, out_ptr, n, c0, c1, c2, c3, c4, c5, c6, c7, c8, c9, c10, c11, c12, c13, c14, c15, BLOCK):
    pass


def _sigmoid_codes(n: int = 16) -> list[int]:
    return [round(65535 / (1.0 + math.exp(-k * 8.0 / (n - 1)))) for k in range(n)]


def test_host_computed_launch_ints_are_computed_numbers_by_their_bits():
    """Red team s65f: sixteen 16-bit sigmoid codes as sixteen int launch arguments were 16 of
    host_made's 64 and no computed number (ok at 1.0003 on the CPU); each is one now, and three
    packed into an int64 are three."""
    data, x = DataInts(), torch.empty(16, 1000)
    data.add(_Kernel(_cubic), (x, torch.empty_like(x), x.numel(), *_sigmoid_codes(), 1024), {})
    assert len(data.computed()) >= 15  # 32768 may be a size (65536 // 2): every other code is not
    codes = _sigmoid_codes() + [0, 0]
    words = [codes[3 * j] | codes[3 * j + 1] << 16 | codes[3 * j + 2] << 32 for j in range(6)]
    packed = DataInts()
    packed.add(_Kernel(_conv), (x, x, x, *words, 1, 1, 1, 1, 64), {})
    assert len(packed.computed()) >= 15


def test_honest_launch_ints_and_read_back_counts_cost_few_computed_numbers():
    """A conv's sizes, a seed and a causal flag cost nothing or one; an int the host read from
    a launch's output (`read`: a count total) costs nothing."""
    data, kernel = DataInts(), _Kernel(_conv)
    x, w, y = torch.empty(1, 64, 32, 32), torch.empty(64, 64, 3, 3), torch.empty(1, 64, 32, 32)
    for _ in range(3):
        data.add(kernel, (x, w, y, 64, 32, 32, 64, 32, 32, 1, 3, 2, 64), {})
    assert len(data.computed()) <= 2  # padding 3, dilation 2: one number each at most
    total = DataInts()
    total.add(_Kernel(_put), (torch.empty(512), 40123, 0, 0, 0), {})
    assert len(total.computed()) == 1
    assert total.computed(lambda v: v == 40123) == set()


def test_views_of_one_storage_at_chosen_places_in_one_launch_are_computed_numbers():
    """Sixteen 0-dim views of an arange at a sigmoid's codes handed as sixteen pointers of
    one launch: one offset per argument, no number before session 66; q, k and v of one
    buffer, or one tensor's halves, cost a step at most."""
    lut, x = torch.arange(1 << 16, dtype=torch.int32), torch.empty(16, 1000)
    picks = DataInts()
    picks.add(_Kernel(_cubic), (x, torch.empty_like(x), x.numel(), *[lut[c] for c in _sigmoid_codes()], 1024), {})
    assert len(picks.computed()) >= 12
    qkv, honest = torch.empty(4, 3 * 768), DataInts()
    honest.add(_Kernel(_put), (qkv[:, :768], qkv[:, 768:1536], qkv[:, 1536:], 0, 0), {})
    halves = torch.empty(8, 2048)
    honest.add(_Kernel(_put), (halves[:, :1024], halves[:, 1024:], halves, 0, 0), {})
    assert len(honest.computed()) <= 2
