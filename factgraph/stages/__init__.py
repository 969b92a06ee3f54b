"""Stages: one model-backed step each (atomize, align, answer, judge...), run by a session."""
