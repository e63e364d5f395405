"""HTTP routes and pages, thin: they call rooms/, never the rules."""

from .errors import install as install_error_handlers
from .pages import router as pages_router
from .rooms import router as rooms_router

__all__ = ["install_error_handlers", "pages_router", "rooms_router"]
