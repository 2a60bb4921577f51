"""The tamper-evident record (RELIABILITY R15; GLI-19 2.8.8, B.3.2).

Every change of an audited row (``records.AUDITED``: rounds, their seats and back bets, ledger
transactions and entries, accounts, tables and their limits, shoes, rule sets, users and their
roles) enters a hash chain in the transaction that makes it (``chain``); an event recorded in
its own right (a decision, a correction's before and after) too (``chain.record``).
``verify`` checks the chain, and every audited row against the latest entry that covers it;
the chain's head, exported to a file (``verify.write_head``), signed with the operator's
Ed25519 key (``signing``; anyone checks it with the public key) and published, catches a chain
cut short or rewritten.
"""
