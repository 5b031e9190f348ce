"""The tree of information-set Monte Carlo tree search, shared by both games' ``ismcts`` bots
(Mille Bornes' :class:`~rallye.agents.mille.search.IsmctsAgent`, Knight Rider's
:class:`~rallye.agents.knightrider.search.MctsAgent`).

Single-observer ISMCTS (Cowling, Powley & Whitehouse 2012): one tree over the searching
bot's information set, its nodes keyed by actions (every player's decisions). An iteration
starts from a determinization (a state sampled from the bot's view, which the game's bot
draws) and :func:`iterate`:

1. **descends** the tree with UCB1 over the actions a node offers *in that determinization*
   (availability counts: a child's ``avail`` counts the visits in which it could be chosen),
   with an optional bias at the root;
2. **expands** one untried action (which one, the bot says) and stops there;
3. **rolls out** with the bot's fast policy while the searched stretch lasts (and at most
   ``plies`` steps);
4. **backs up** the end's values, each node taking the value of the player (or side) who
   chose it.

What stays the game's: the determinization, the actions a node offers, who acts, how far the
search looks, the rollout policy and the values of the end, passed in as functions. The
budget (iterations, and the optional wall-clock cap :class:`Deadline`) and the choice at the
root are the bots' own.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from typing import Generic, TypeVar

S = TypeVar("S")  # a game state (a determinization)
A = TypeVar("A")  # an action

__all__ = ["Deadline", "Node", "iterate"]


class Node(Generic[A]):
    """One node: its children by action, visits ``n``, total value ``w``, and ``avail``,
    the visits of its parent in which its action was available."""

    __slots__ = ("avail", "children", "n", "w")

    def __init__(self) -> None:
        self.children: dict[A, Node[A]] = {}
        self.n = 0
        self.w = 0.0
        self.avail = 0


def iterate(
    state: S,
    node: Node[A],
    path: list[tuple[Node[A], int]],
    *,
    going: Callable[[S], bool],
    offered: Callable[[S, bool], Sequence[A]],
    actor: Callable[[S], int],
    expand: Callable[[S, Sequence[A], list[A], bool], A],
    apply: Callable[[S, A], S],
    rollout: Callable[[S], A],
    values: Callable[[S], Sequence[float]],
    exploration: float,
    root_bias: Callable[[A, Node[A]], float] | None = None,
    plies: int | None = None,
) -> None:
    """One iteration from ``state`` at ``node``; ``path`` holds the (node, actor) pairs
    already on the way (the values are backed up into them too).

    ``going(state)``: the searched stretch goes on (the descent and the rollout stop when
    not); ``offered(state, at_root)``: the actions a node offers; ``actor(state)``: the index
    into ``values`` of whoever acts; ``expand(state, offered, untried, at_root)``: the untried
    action to add; ``rollout(state)``: the fast policy's action; ``values(state)``: the end's
    value per actor; ``root_bias(action, child)``: added to UCB1 at the root; ``plies``: the
    most rollout steps (``None``: as long as ``going``).
    """
    at_root = True
    while going(state):
        legal = offered(state, at_root)
        who = actor(state)
        untried = [a for a in legal if a not in node.children]
        if untried:
            a = expand(state, legal, untried, at_root)
            child: Node[A] = Node()
            node.children[a] = child
            for b in legal:
                if b in node.children:
                    node.children[b].avail += 1
            path.append((child, who))
            state = apply(state, a)
            break
        best = _ucb1(node, legal, exploration, root_bias if at_root else None)
        node = node.children[best]
        path.append((node, who))
        state = apply(state, best)
        at_root = False
    steps = 0
    while (plies is None or steps < plies) and going(state):
        state = apply(state, rollout(state))
        steps += 1
    end = values(state)
    for nd, who in path:
        nd.n += 1
        nd.w += end[who]


def _ucb1(node: Node[A], legal: Sequence[A], c: float, bias: Callable[[A, Node[A]], float] | None) -> A:
    """The child of ``node`` among ``legal`` (every one visited) with the highest UCB1 (with
    availability counts), plus ``bias``; counts each one's availability."""
    best_a = legal[0]
    best_u = -1e9
    for b in legal:
        ch = node.children[b]
        ch.avail += 1
        u = ch.w / ch.n + c * math.sqrt(math.log(ch.avail) / ch.n)
        if bias is not None:
            u += bias(b, ch)
        if u > best_u:
            best_a, best_u = b, u
    return best_a


class Deadline:
    """The optional wall-clock cap of a decision (``limit`` seconds; ``None``: none), from
    now. With it a search is no longer reproducible: the iterations it cuts depend on the
    machine and its load."""

    __slots__ = ("limit", "start")

    def __init__(self, limit: float | None) -> None:
        self.limit = limit
        self.start = time.perf_counter()

    def passed(self) -> bool:
        return self.limit is not None and time.perf_counter() - self.start > self.limit
