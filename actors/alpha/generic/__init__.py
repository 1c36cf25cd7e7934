"""The generic Alpha agent: ISMCTS Strategy Office, beta-reputation Intelligence Office, pact Foreign Office."""
