"""krl learner role package."""
