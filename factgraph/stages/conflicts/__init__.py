"""The contradiction check's slot checks, one module each (numbers, negation, antonyms, names),
on what they share (:mod:`~factgraph.stages.conflicts.base`);
:mod:`factgraph.stages.contradiction` aligns the fact to a sentence and asks them in turn."""
