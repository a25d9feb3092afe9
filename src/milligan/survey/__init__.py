"""Winnability surveys: solve many deals, store each verdict, report the win rates.

``milligan survey run`` solves a range of deals on a local process pool or a
Dask cluster (:mod:`milligan.survey.runner`) and stores each result in SQLite
as it arrives (:mod:`milligan.survey.results`); ``milligan survey report``
turns them into the winnability table and charts (:mod:`milligan.survey.report`).
"""

from milligan.survey.results import Limits, Result, ResultStore, default_path, winnable_deals
from milligan.survey.stats import wilson_interval

__all__ = ["Limits", "Result", "ResultStore", "default_path", "wilson_interval", "winnable_deals"]
