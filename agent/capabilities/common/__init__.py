"""What several capabilities use: not a capability itself (it declares no spec.py).

- outcome: what a node returns (done, clarify, failed), the approval interrupt, a checked prompt;
- scope: which project a request is about; task_keys: the task a request names, only as typed;
- task_brief: a task and its neighbours as words for a prompt; inspection: one look into a stored result;
  looking: the inspection loop (several looks within a budget, named sources, the next page of a paged read);
- polish and fidelity: a model's rewrite of a template, held to the template's figures;
- not_built: the answer of a capability routed but not built yet (its spec's node=None).
"""
