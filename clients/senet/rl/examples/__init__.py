"""Worked examples of learning agents: a policy trained on Mykerinos and published as a
bot strategy (``rl_mykerinos``). ``python -m senet.rl.examples.train_mykerinos`` trains
it again; ``docs/learning.md`` reports how it plays."""
