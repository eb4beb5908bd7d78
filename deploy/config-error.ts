/** Why a deployment input was refused (a parameter file, an overrides file, an environment). */
export class DeploymentConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "DeploymentConfigError";
  }
}
