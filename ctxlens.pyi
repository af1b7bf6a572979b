"""Type stubs for the `ctxlens` extension module (python/src/lib.rs); maturin installs
them beside it with a `py.typed` marker (it takes `<module>.pyi` from beside
pyproject.toml, hence here)."""

import os
from typing import Any, Dict, List, Optional, Union

__version__: str

class Transcript:
    """A loaded transcript."""

    @property
    def format(self) -> str: ...
    @property
    def source(self) -> str: ...
    def __len__(self) -> int: ...
    def counts(self, tokenizer: str = "estimate") -> List[int]: ...
    def total(self, tokenizer: str = "estimate") -> int: ...
    def plan(
        self,
        max_tokens: int,
        keep_tail: Optional[int] = None,
        flush_to_memory: bool = False,
        tokenizer: str = "estimate",
        strategy: str = "tail",
    ) -> Dict[str, Any]: ...
    def compact(
        self,
        max_tokens: int,
        keep_tail: Optional[int] = None,
        flush_to_memory: bool = False,
        tokenizer: str = "estimate",
        strategy: str = "tail",
        summary_role: str = "system",
        summary: Optional[str] = None,
    ) -> str: ...
    def replay(
        self,
        max_tokens: Optional[int] = None,
        keep_tail: Optional[int] = None,
        flush_to_memory: bool = False,
        tokenizer: str = "estimate",
        policy: Optional[str] = None,
        set: Optional[List[str]] = None,
        context_window: Optional[int] = None,
    ) -> Dict[str, Any]: ...
    def compare(
        self,
        policies: Optional[List[str]] = None,
        context_window: Optional[int] = None,
        set: Optional[List[str]] = None,
        tokenizer: str = "estimate",
    ) -> Dict[str, Any]: ...
    def sweep(
        self,
        policy: Optional[str] = None,
        vary: Optional[str] = None,
        set: Optional[List[str]] = None,
        context_window: Optional[int] = None,
        minimise: Optional[str] = None,
        tokenizer: str = "estimate",
        max_tokens: Optional[str] = None,
        keep_tail: Optional[List[int]] = None,
        keep_ratio: Optional[List[float]] = None,
        flush_to_memory: bool = False,
        keep: Optional[int] = None,
        fact_floor: float = 50.0,
    ) -> Dict[str, Any]: ...
    def stats(self, tokenizer: str = "estimate") -> Dict[str, Any]: ...
    def breakdown(
        self,
        by: str = "kind",
        max_tokens: Optional[int] = None,
        keep_tail: Optional[int] = None,
        tokenizer: str = "estimate",
    ) -> Dict[str, Any]: ...
    def history(self, tokenizer: str = "estimate") -> Dict[str, Any]: ...
    def status(self, context_window: Optional[int] = None) -> Dict[str, Any]: ...
    def backtest(self, tokenizer: str = "estimate") -> Optional[Dict[str, Any]]: ...
    def check(self, provider: Optional[str] = None) -> List[Dict[str, Any]]: ...

def load(
    source: Union[str, "os.PathLike[str]", List[Dict[str, Any]], Dict[str, Any]],
    format: Optional[str] = None,
    thresholds_from: Optional[str] = None,
) -> Transcript: ...
def tokenizers() -> List[str]: ...
def ledger(
    path: Union[str, "os.PathLike[str]"],
    review: Optional[Union[str, "os.PathLike[str]"]] = None,
    format: Optional[str] = None,
) -> Dict[str, Any]: ...
