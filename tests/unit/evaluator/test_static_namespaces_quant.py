"""The quantisation family is refused wherever its part stands in a name (red team rt62:
fused_moving_avg_obs_fake_quant escaped the prefixes and wrote past its running min/max)."""
from evaluator import static_namespaces


def test_the_quantisation_family_is_refused_anywhere_in_a_name():
    torch_names = static_namespaces.tables().namespaces["torch"]
    for name in ("fused_moving_avg_obs_fake_quant", "fake_quantize_per_channel_affine", "quantize_per_tensor",
                 "dequantize", "choose_qparams_optimized", "empty_quantized"):
        assert name not in torch_names
    assert {"quantile", "nanquantile"} <= torch_names
