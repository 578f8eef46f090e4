"""The deterministic reader of a typed message: a grammar over tokens, English and Chinese.

One reading serves the offline provider (agent/llm/offline.py) and the intent check that guards a
model-routed write (agent/routing/intent_check.py): a write is asked only when the grammar accounts
for the whole message as a request (reader.py).
"""
