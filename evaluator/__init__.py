"""krl evaluator role package."""
