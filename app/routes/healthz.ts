import { methodNotAllowed } from "#app/web/api.server";
import { livenessAnswer } from "#app/web/liveness.server";

export function loader() {
  return livenessAnswer();
}

export function action() {
  return methodNotAllowed("GET");
}
