import type { Page } from 'playwright-core';

/** /business-units/create[?cluster_id=]: the BU form, the cluster pre-selected from the query, and the licence pre-check. */
export class BusinessUnitCreatePage {
  constructor(
    private readonly page: Page,
    private readonly baseUrl: string,
  ) {}

  readonly cluster = () => this.page.getByRole('combobox', { name: /^Cluster/ });
  readonly code = () => this.page.getByTestId('bu-section-general').getByRole('textbox', { name: /^Code/ });
  readonly name = () => this.page.getByTestId('bu-section-general').getByRole('textbox', { name: /^Name/ });
  readonly createButton = () => this.page.getByRole('button', { name: 'Create', exact: true });

  async open(clusterId: string): Promise<void> {
    await this.page.goto(`${this.baseUrl}/#/business-units/create?cluster_id=${encodeURIComponent(clusterId)}`);
    await this.waitLoaded();
  }

  async waitLoaded(): Promise<void> {
    await this.code().waitFor();
  }

  /** The cluster shown as selected (its name). */
  async selectedClusterName(): Promise<string> {
    return ((await this.cluster().textContent()) ?? '').trim();
  }

  async fill(bu: { code: string; name: string }): Promise<void> {
    await this.code().fill(bu.code);
    await this.name().fill(bu.name);
  }

  /** Submits a create that is expected to succeed; resolves on the new BU's edit page. */
  async submitAndWaitForEdit(): Promise<void> {
    await this.createButton().click();
    await this.page.waitForURL(/#\/business-units\/[^/]+\/edit$/);
  }
}
