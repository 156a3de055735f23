"""Player ratings, a concern of their own: the pure rating of a deal (rating), the stored
ratings (models), rating deals onto them and replaying a scope (replay), the ratings' job
(jobs), what a deal's save asks and the rebuild (services), and what pages read (selectors)."""
