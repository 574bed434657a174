import type { Page } from 'playwright-core';

export interface NewCluster {
  code: string;
  name: string;
  alias?: string;
  maxLicenseBu?: number;
}

/** /clusters/create: code, alias (max 3), name, max licensed BUs ('Unlimited' placeholder), active. */
export class ClusterCreatePage {
  constructor(
    private readonly page: Page,
    private readonly baseUrl: string,
  ) {}

  readonly code = () => this.page.getByRole('textbox', { name: /^Code/ });
  readonly alias = () => this.page.getByRole('textbox', { name: /^Alias/ });
  readonly name = () => this.page.getByRole('textbox', { name: /^Name/ });
  readonly maxLicenseBu = () => this.page.getByRole('spinbutton', { name: /^Max licensed BUs/ });
  readonly createButton = () => this.page.getByRole('button', { name: 'Create', exact: true });

  async open(): Promise<void> {
    await this.page.goto(`${this.baseUrl}/#/clusters/create`);
    await this.code().waitFor();
  }

  async fill(cluster: NewCluster): Promise<void> {
    await this.code().fill(cluster.code);
    if (cluster.alias !== undefined) await this.alias().fill(cluster.alias);
    await this.name().fill(cluster.name);
    if (cluster.maxLicenseBu !== undefined) await this.maxLicenseBu().fill(String(cluster.maxLicenseBu));
  }

  /** Submits and waits for the new cluster's edit page; returns its id. */
  async submit(): Promise<string> {
    await this.createButton().click();
    await this.page.waitForURL(/#\/clusters\/[^/]+\/edit$/);
    const id = /#\/clusters\/([^/]+)\/edit$/.exec(this.page.url())?.[1];
    if (!id) throw new Error(`no cluster id in ${this.page.url()}`);
    return decodeURIComponent(id);
  }

  /** Opens the form, fills it and creates the cluster; returns its id. */
  async create(cluster: NewCluster): Promise<string> {
    await this.open();
    await this.fill(cluster);
    return this.submit();
  }
}
