"""Standings: the stored rows kept in step with the deals, their reads, cuts, duplicate results."""
