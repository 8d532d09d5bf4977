"""Learning agents: Senet's games behind the interfaces reinforcement-learning libraries use.

A client layer over the rules cores (never the server): each game publishes an
encoding (:mod:`senet.rl.encoding`, entry-point group ``senet.rl_encodings``) that
declares its fixed action space and its observation features, and the adapters
build on it for every game alike:

* :mod:`senet.rl.pettingzoo`: a PettingZoo AEC environment per game;
* :mod:`senet.rl.gymnasium`: one seat of a game against Senet's bots, as a
  Gymnasium environment for single-agent libraries;
* :mod:`senet.rl.openspiel`: each game as an OpenSpiel game;
* :mod:`senet.rl.policy`: a policy (observation and mask to an action index) as a
  bot strategy, so a trained agent plays hosted seats and arena matches;
* :mod:`senet.rl.dataset`: played matches (``senet export``) as each decision's
  observation, mask, action and reward, for learning from people and the ladder.

Heavy libraries (numpy, gymnasium, pettingzoo) come with the ``rl`` extra and are
imported by the adapters only; the encodings are standard library.
"""
