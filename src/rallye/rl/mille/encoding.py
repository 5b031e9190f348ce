"""The Mille Bornes observation encoding, action masks and oracle encoding: they live in
:mod:`rallye.agents.mille.encoding` (the ``learned`` bot reads its views with them, without
the research libraries) and are re-exported here, where the environments use them."""

from __future__ import annotations

from rallye.agents.mille.encoding import (
    CODE_BY_ID,
    MAX_SEATS,
    MAX_SIDES,
    OBS_FIELDS,
    OBS_HIGH,
    OBS_LOW,
    OBS_SIZE,
    OBS_VERSION,
    ORACLE_ORDER,
    ORACLE_SIZE,
    SIDE_SIZE,
    ViewEncoder,
    _table,
    action_mask,
    describe,
    encode_oracle,
    encode_view,
    encode_view_into,
    field_slice,
    mask_from_legal,
)

__all__ = [
    "CODE_BY_ID",
    "MAX_SEATS",
    "MAX_SIDES",
    "OBS_FIELDS",
    "OBS_HIGH",
    "OBS_LOW",
    "OBS_SIZE",
    "OBS_VERSION",
    "ORACLE_ORDER",
    "ORACLE_SIZE",
    "SIDE_SIZE",
    "ViewEncoder",
    "_table",
    "action_mask",
    "describe",
    "encode_oracle",
    "encode_view",
    "encode_view_into",
    "field_slice",
    "mask_from_legal",
]
