import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";

import { CopyButton } from "../Copy";

describe("Copy buttons", () => {
  it("are named by the words they show, before and after copying (WCAG 2.5.3, axe's label-content-name-mismatch)", async () => {
    const writeText = vi.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, "clipboard", { value: { writeText }, configurable: true });
    render(<CopyButton text="eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJrZXkifQ.signature" label="Copy key" />);
    const button = screen.getByRole("button");
    expect(button).toHaveAccessibleName(expect.stringMatching(/^Copy key/));
    fireEvent.click(button);
    expect(writeText).toHaveBeenCalledWith("eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJrZXkifQ.signature");
    await waitFor(() => expect(button).toHaveTextContent(/^Copied/));
    expect(button, "the name starts with what the button now shows").toHaveAccessibleName(
      expect.stringMatching(/^Copied/),
    );
  });
});
