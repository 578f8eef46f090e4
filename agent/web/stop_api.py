"""The assistant API's Stop (one more operation on a run, docs/DESIGN.md#http-api): the owner ends a running run."""
from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response

from agent.run.service import run_stop
from pm_assistant.api import AuthenticatedApi
from projects.serializers import error_responses

from .api import RUN_SCHEMA
from .run_shapes import run_as_dict


class RunStopApi(AuthenticatedApi):
    @extend_schema(request=None, responses={200: RUN_SCHEMA, **error_responses(401, 403, 404, 409)},
                   summary="Stop a running run",
                   description="Only the run's owner may stop it (anyone else gets 404). The run ends as "
                   '"stopped" at its next point between graph nodes and a streaming model answer is cut off: '
                   "nothing is written after the stop. A run that has already changed a task cannot be stopped: "
                   '409 with code "already_wrote", and the run finishes and says what it did. A run that is not '
                   "running (finished, waiting for a confirmation, already stopped) gets 409.")
    def post(self, request: Request, run_id: str) -> Response:
        return Response(run_as_dict(run_stop(user=request.user, run_id=run_id)))  # type: ignore[arg-type]
