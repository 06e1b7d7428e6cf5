"""The EstablishConnection that internet scanners of TCP 1801 send.

Source: SANS Internet Storm Center diary "Port 1801 Traffic: Microsoft Message Queue" (2023): the
scanners replay FRAME 3 of MS-MQQB 4.1 (tests/vectors/mqqb_4_1.py) byte for byte, except that the
512 bytes of padding are zero instead of 0x5A.  Its ServerGuid is the Windows queue manager of the
4.1 session, so any other queue manager refuses it (MS-MQQB 2.2.1 CS).
"""

from __future__ import annotations

from .mqqb_4_1 import FRAME3_ESTABLISH_REQUEST

SOURCE = 'SANS ISC diary "Port 1801 Traffic: Microsoft Message Queue"'
SCANNER_ESTABLISH_REQUEST = FRAME3_ESTABLISH_REQUEST[:60] + bytes(512)
