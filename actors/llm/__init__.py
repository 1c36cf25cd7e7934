"""Language-model agents: a model behind an OpenAI-compatible endpoint as a detente seat or office."""
