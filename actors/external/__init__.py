"""Agents outside detente: any program that reads and writes JSON plays a seat, or serves one
office of a built-in Alpha agent, over stdin/stdout (`exec`) or a WebSocket (`ws`).

protocol.py: the messages and the JSON Schema; transport.py: the two transports; connection.py:
one agent's connection, its limits and faults, the pool of this process; actor.py: the live actor
and the one a replay answers from the log; lineup.py: specs, header entries, building seats.
"""
