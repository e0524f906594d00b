"""krl actor role package."""
