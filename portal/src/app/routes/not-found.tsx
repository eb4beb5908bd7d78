import { Link } from "react-router";

export function Component() {
  return (
    <>
      <h1>Page not found</h1>
      <p>
        <Link to="/">Back to the start</Link>
      </p>
    </>
  );
}
