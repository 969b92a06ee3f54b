"""Runners: evaluate many inputs, resumably: the batch runner and the Ray runner."""
